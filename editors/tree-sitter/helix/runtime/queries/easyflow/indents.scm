; Helix indentation: the inside of parameter lists, lists and attributes is
; one level deeper than their opening line; the closing bracket's line is not.

[
  (parameters)
  (list)
  (attribute)
  (flow_attribute)
  (index)
] @indent

[
  ")"
  "]"
] @outdent
