; Generated from editors/tree-sitter/easyflow/queries/highlights.scm by
; editors/tree-sitter/tests/queries.rs (UPDATE_EXPECT=1): edit that file.

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
  (identifier) @type)

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
  member: (identifier) @property)

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
