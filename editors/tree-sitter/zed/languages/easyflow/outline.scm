; Zed's outline: steps, required files and flow attributes.
(step
  "step" @context
  name: (identifier) @name) @item

(require
  "require" @context
  (identifier) @name) @item

(flow_attribute
  key: (identifier) @name) @item
