; EasyFlow highlights, with Neovim's standard capture names (the tree-sitter
; CLI reads them too). Helix and Zed name captures their own way: their
; copies under ../../helix and ../../zed are this file with the captures
; renamed, kept in step by tests/queries.rs. No two patterns capture one
; node, so the editors' different precedence rules cannot disagree.

(comment) @comment

[
  "flow"
  "step"
  "runs"
  "after"
  "on"
  "sweep"
  "pre"
  "post"
] @keyword

"require" @keyword.import

; Section labels (`app:`, `exec:`); as names they are identifiers.
[
  "app"
  "exec"
] @keyword

; `~step`: a long-running step.
"~" @keyword.modifier

(code_block
  [
    "code"
    "code end"
  ] @keyword)

(code_language) @label

(step
  name: (identifier) @function)

(after_clause
  (identifier) @function)

(on_clause
  (identifier) @function)

(package_path
  (identifier) @module)

(require
  (identifier) @variable)

(parameter
  name: (identifier) @variable.parameter)

(attribute
  key: (identifier) @attribute)

(flow_attribute
  key: (identifier) @attribute)

(reference
  head: (identifier) @variable)

(reference
  member: (identifier) @variable.member)

(string) @string

(escape_sequence) @string.escape

(integer) @number

(double) @number.float

(boolean) @boolean

(constant) @constant.builtin

[
  "="
  "<-"
] @operator

[
  "("
  ")"
  "["
  "]"
] @punctuation.bracket

[
  ","
  ";"
  "."
  ":"
] @punctuation.delimiter
