; Zed indentation: one level inside parameter lists and lists.
(parameters ")" @end) @indent
(list "]" @end) @indent
