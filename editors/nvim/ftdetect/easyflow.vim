" EasyFlow workflows (*.flow) and their topologies (*.topology).
" Plain Vimscript, so it works in Vim and in every Neovim (0.7 sources
" ftdetect/*.vim and ftdetect/*.lua alike).
autocmd BufRead,BufNewFile *.flow setfiletype easyflow
autocmd BufRead,BufNewFile *.topology setfiletype easyflow-topology
" The package catalog: TOML, but served by easyflow-ls (E0810); `set`, not
" `setfiletype`, as the TOML detection may have run first.
autocmd BufRead,BufNewFile easyflow-packages.toml set filetype=easyflow-catalog
