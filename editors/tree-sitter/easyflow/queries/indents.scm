; Neovim (nvim-treesitter) indentation: the inside of parameter lists,
; lists and attributes is one level deeper than their opening line; the
; closing bracket's line is not.

[
  (parameters)
  (list)
  (attribute)
  (flow_attribute)
] @indent.begin

[
  ")"
  "]"
] @indent.branch @indent.end

; Embedded code and comments keep the indentation they have.
[
  (code_body)
  (comment)
] @indent.auto
