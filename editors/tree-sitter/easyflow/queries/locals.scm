; A flow is one scope: its steps and required files are visible everywhere
; in it, before and after their definition (language.md §3.1).

(source_file) @local.scope

(step
  name: (identifier) @local.definition.function)

(require
  (identifier) @local.definition.var)

(reference
  head: (identifier) @local.reference)

(after_clause
  (identifier) @local.reference)

(on_clause
  (identifier) @local.reference)
