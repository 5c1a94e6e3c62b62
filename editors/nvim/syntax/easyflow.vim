" Vim syntax file
" Language:    EasyFlow (CLAVIRE workflow language), *.flow
" Fallback highlighting: in Neovim 0.9+ the server's semantic tokens are drawn
" on top of it. Mirrors syntaxes/easyflow.tmLanguage.json.
" Embedded code blocks (`code ruby`, `code python`, `code sh`) are highlighted
" as their language unless g:easyflow_embedded_syntax is 0.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

" Comments (a block comment does not nest).
syn keyword easyflowTodo contained TODO FIXME XXX NOTE
syn match easyflowLineComment "//.*$" contains=easyflowTodo,@Spell
syn region easyflowBlockComment start="/\*" end="\*/" contains=easyflowTodo,@Spell

" Strings and escapes: \" \\ \' \b \t \n \f \r \uXXXX, octal \N \NN \NNN (first
" digit 0-3 when three); any other escape is an error (E0103).
syn region easyflowString start=+"+ skip=+\\\\\|\\"+ end=+"+ contains=easyflowEscape,easyflowEscapeError,@Spell
syn match easyflowEscapeError contained "\\\%(u\x\{0,3}\|.\|$\)"
syn match easyflowEscape contained "\\\%([\"\\'btnfr]\|u\x\{4}\|[0-3]\o\o\|\o\{1,2}\)"

" Numbers: integers and all double forms (1. 1.5 .5 1e5 1.5e-3 .34e10 5.e-14).
syn match easyflowInteger "\%(\w\|\.\)\@1<![+-]\=\d\+\%(\w\|\.\)\@!"
syn match easyflowFloat "\%(\w\|\.\)\@1<![+-]\=\%(\d\+\.\d*\%([eE][+-]\=\d\+\)\=\|\.\d\+\%([eE][+-]\=\d\+\)\=\|\d\+[eE][+-]\=\d\+\)\w\@!"

syn keyword easyflowBoolean true false
syn match easyflowConstant "@\h\w*"

" Keywords (reserved) and the `~` of `~step`.
syn keyword easyflowKeyword require flow runs after on sweep
syn keyword easyflowKeyword step nextgroup=easyflowStepName skipwhite skipnl skipempty
syn keyword easyflowKeyword pre post nextgroup=easyflowCodeRuby,easyflowCodePython,easyflowCodeShell,easyflowCode,easyflowBlockComment skipwhite skipnl skipempty
syn match easyflowTilde "\~"

" Step names after `step`; package paths after `runs`; step names in
" `after`/`on` lists.
syn match easyflowStepName contained "\<\%(\%(flow\|require\|step\|sweep\|runs\|after\|on\|true\|false\|pre\|post\)\>\)\@!\h\w*"
syn match easyflowPackage "\%(\<runs\_s\+\)\@<=\h\w*\%(\s*\.\s*\h\w*\)*"
syn match easyflowAfterList "\%(\<\%(after\|on\)\s\+\)\@<=\h\w*\%(\s*,\s*\h\w*\)*" contains=easyflowKeyword

" `app:` and `exec:` open parameter sections; elsewhere they are names.
syn match easyflowSection "\<\%(app\|exec\)\>\ze\s*:"
" A parameter name before `=` or `<-`.
syn match easyflowParameter "\<\h\w*\ze\s*\%(=\|<-\)"
" An attribute key: `[key =` and `[flow:key =`.
syn match easyflowAttribute "\%(\[\s*\%(flow\s*:\s*\)\=\)\@<=\h\w*\ze\s*="
syn match easyflowOperator "<-\|="
syn match easyflowMember "\.\s*\zs\h\w*"

" Characters that begin no token (E0101) and non-ASCII identifiers (E0106).
syn match easyflowError "[^[:space:][:alnum:]_@\"{}\[\]()=;:.,~+\-/<]"
syn match easyflowError "<-\@!"
syn match easyflowError "[^\x00-\x7f]\+"

" Code blocks: `code [language]` after pre/post, up to a line that begins
" with `code` `end`.
syn region easyflowCode contained matchgroup=easyflowCodeDelimiter start="\<code\>\%(\s\+\h\w*\)\=" end="^\s*code\s\+end\w\@!" keepend
if get(g:, 'easyflow_embedded_syntax', 1)
  for s:lang in ['ruby', 'python', 'sh']
    if !empty(globpath(&runtimepath, 'syntax/' . s:lang . '.vim'))
      unlet! b:current_syntax
      execute 'syn include @easyflowEmbedded_' . s:lang . ' syntax/' . s:lang . '.vim'
    endif
  endfor
  unlet! s:lang b:current_syntax
endif
syn region easyflowCodeRuby contained matchgroup=easyflowCodeDelimiter start="\<code\s\+ruby\>" end="^\s*code\s\+end\w\@!" keepend contains=@easyflowEmbedded_ruby
syn region easyflowCodePython contained matchgroup=easyflowCodeDelimiter start="\<code\s\+\%(python3\|python\|py\)\>" end="^\s*code\s\+end\w\@!" keepend contains=@easyflowEmbedded_python
syn region easyflowCodeShell contained matchgroup=easyflowCodeDelimiter start="\<code\s\+\%(sh\|bash\|shell\)\>" end="^\s*code\s\+end\w\@!" keepend contains=@easyflowEmbedded_sh

syn sync minlines=200

hi def link easyflowTodo Todo
hi def link easyflowLineComment Comment
hi def link easyflowBlockComment Comment
hi def link easyflowString String
hi def link easyflowEscape SpecialChar
hi def link easyflowEscapeError Error
hi def link easyflowInteger Number
hi def link easyflowFloat Float
hi def link easyflowBoolean Boolean
hi def link easyflowConstant Constant
hi def link easyflowKeyword Keyword
hi def link easyflowTilde Keyword
hi def link easyflowStepName Function
hi def link easyflowPackage Type
hi def link easyflowAfterList Function
hi def link easyflowSection Label
hi def link easyflowParameter Identifier
hi def link easyflowAttribute PreProc
hi def link easyflowOperator Operator
hi def link easyflowMember Identifier
hi def link easyflowError Error
hi def link easyflowCodeDelimiter PreProc

let b:current_syntax = 'easyflow'

let &cpo = s:cpo_save
unlet s:cpo_save
