" Vim syntax file
" Language:    EasyFlow package catalog (easyflow-packages.toml): TOML.

if exists('b:current_syntax')
  finish
endif
runtime! syntax/toml.vim
unlet! b:current_syntax
let b:current_syntax = 'easyflow-catalog'
