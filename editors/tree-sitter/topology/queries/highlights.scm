; EasyFlow topology highlights (Neovim's standard capture names; see
; ../../easyflow/queries/highlights.scm for the other editors).

(comment) @comment

(capability) @type

(number) @number

"+" @operator

[
  "#"
  ":"
  "x"
  ","
  "/"
] @punctuation.delimiter
