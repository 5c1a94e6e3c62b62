; Generated from editors/tree-sitter/topology/queries/highlights.scm by
; editors/tree-sitter/tests/queries.rs (UPDATE_EXPECT=1): edit that file.

(comment) @comment

(capability) @type

(number) @constant.numeric.integer

"+" @operator

[
  "#"
  ":"
  "x"
  ","
  "/"
] @punctuation.delimiter
