; Code blocks in the language their first line names: `post code ruby`,
; `pre code python`. Shell blocks (`shell`, `sh`) use the `bash` parser.

((code_block
  language: (code_language) @injection.language
  body: (code_body) @injection.content)
  (#not-any-of? @injection.language "shell" "sh"))

((code_block
  language: (code_language) @_language
  body: (code_body) @injection.content)
  (#any-of? @_language "shell" "sh")
  (#set! injection.language "bash"))
