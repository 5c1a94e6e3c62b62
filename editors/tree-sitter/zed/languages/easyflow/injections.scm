; Generated from editors/tree-sitter/easyflow/queries/injections.scm by
; editors/tree-sitter/tests/queries.rs (UPDATE_EXPECT=1): edit that file.

((code_block
  language: (code_language) @injection.language
  body: (code_body) @injection.content)
  (#not-any-of? @injection.language "shell" "sh"))

((code_block
  language: (code_language) @_language
  body: (code_body) @injection.content)
  (#any-of? @_language "shell" "sh")
  (#set! injection.language "bash"))
