; Helix text objects: a step is a "function" (`]f`, `maf`), a parameter a
; "parameter" (`]a`, `maa`), comments are comments.

(step) @function.around

(parameters) @function.inside

(parameter) @parameter.around

(comment) @comment.around
