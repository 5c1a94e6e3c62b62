" Vim syntax file
" Language:    EasyFlow topology (GPI-Space worker descriptions), *.topology
"   Capabilities [#Socket] [:PerNode [xMaxNodes] [,Shm] [/Port]], separated by
"   whitespace; `//` starts a comment. Mirrors
"   syntaxes/easyflow-topology.tmLanguage.json.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

" Anything that is not part of a valid description, up to the next
" whitespace (where the server's parser resumes too): E0601.
syn match easyflowTopologyError "\%(\%(//\)\@!\S\)\+"

syn match easyflowTopologyCapability "\%(^\|[[:space:]+]\)\@1<=\h\w*"
syn match easyflowTopologyPlus "\w\@1<=+\h\@="
syn match easyflowTopologySocket "\w\@1<=#\d\+\%([:[:space:]]\|//\|$\)\@=" contains=easyflowTopologySeparator
syn match easyflowTopologyPerNode "\w\@1<=:\d\+\%([x,/[:space:]]\|$\)\@=" contains=easyflowTopologySeparator
syn match easyflowTopologyMaxNodes "\d\@1<=x\d\+\%([,/[:space:]]\|$\)\@=" contains=easyflowTopologySeparator
syn match easyflowTopologyShm "\d\@1<=,\d\+\%([/[:space:]]\|$\)\@=" contains=easyflowTopologySeparator
syn match easyflowTopologyPort "\d\@1<=/\d\+\%([[:space:]]\|//\|$\)\@=" contains=easyflowTopologySeparator
syn match easyflowTopologySeparator contained "[#:x,/]"

syn keyword easyflowTopologyTodo contained TODO FIXME XXX NOTE
syn match easyflowTopologyComment "//.*$" contains=easyflowTopologyTodo,@Spell

hi def link easyflowTopologyError Error
hi def link easyflowTopologyCapability Type
hi def link easyflowTopologyPlus Operator
hi def link easyflowTopologySocket Number
hi def link easyflowTopologyPerNode Number
hi def link easyflowTopologyMaxNodes Number
hi def link easyflowTopologyShm Number
hi def link easyflowTopologyPort Number
hi def link easyflowTopologySeparator Delimiter
hi def link easyflowTopologyTodo Todo
hi def link easyflowTopologyComment Comment

let b:current_syntax = 'easyflow-topology'

let &cpo = s:cpo_save
unlet s:cpo_save
