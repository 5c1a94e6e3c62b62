; Steps, parameter lists, lists, code blocks and block comments fold.
[
  (step)
  (parameters)
  (list)
  (code_block)
  (comment)
] @fold
