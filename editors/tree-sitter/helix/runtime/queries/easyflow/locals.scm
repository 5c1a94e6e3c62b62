; Generated from editors/tree-sitter/easyflow/queries/locals.scm by
; editors/tree-sitter/tests/queries.rs (UPDATE_EXPECT=1): edit that file.

(source_file) @local.scope

(step
  name: (identifier) @local.definition.function)

(require
  (identifier) @local.definition.variable)

(reference
  head: (identifier) @local.reference)

(after_clause
  (identifier) @local.reference)

(on_clause
  (identifier) @local.reference)
