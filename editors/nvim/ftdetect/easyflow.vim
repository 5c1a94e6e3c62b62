" EasyFlow workflows (*.flow) and their topologies (*.topology).
" Plain Vimscript, so it works in Vim and in every Neovim (0.7 sources
" ftdetect/*.vim and ftdetect/*.lua alike).
autocmd BufRead,BufNewFile *.flow setfiletype easyflow
autocmd BufRead,BufNewFile *.topology setfiletype easyflow-topology
