// Highlighting of EasyFlow flows and topologies on the documentation site
// (book.toml's additional-js): the languages for mdBook's highlight.js,
// then the site's `easyflow` and `topology` blocks highlighted again (mdBook
// highlights before this script runs).
(function () {
  "use strict";
  if (typeof hljs === "undefined") {
    return;
  }
  var NAME = /[A-Za-z_][A-Za-z0-9_]*/;

  hljs.registerLanguage("easyflow", function (hljs) {
    return {
      name: "EasyFlow",
      keywords: {
        keyword: "flow require step sweep runs after on pre post app exec",
        literal: "true false",
      },
      contains: [
        hljs.C_LINE_COMMENT_MODE,
        hljs.C_BLOCK_COMMENT_MODE,
        {
          // A code block: its language's code up to `code end`.
          className: "meta",
          begin: /\bcode\b[ \t]*[A-Za-z_]*[ \t]*$/m,
          end: /^[ \t]*code[ \t]+end\b/m,
          contains: [{ className: "string", begin: /^/, end: /(?=^[ \t]*code[ \t]+end\b)/m }],
        },
        { className: "string", begin: /"/, end: /"/, contains: [hljs.BACKSLASH_ESCAPE] },
        { className: "symbol", begin: /@[A-Za-z_][A-Za-z0-9_]*/ },
        { className: "keyword", begin: /~step\b/ },
        {
          // The step's name after `step`.
          begin: /\bstep[ \t]+/,
          returnBegin: true,
          contains: [
            { className: "keyword", begin: /step/ },
            { className: "title", begin: NAME, endsParent: true },
          ],
        },
        {
          className: "number",
          begin: /[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?\b/,
        },
        { className: "operator", begin: /<-/ },
      ],
    };
  });

  hljs.registerLanguage("topology", function (hljs) {
    return {
      name: "GPI-Space topology",
      contains: [
        hljs.C_LINE_COMMENT_MODE,
        { className: "number", begin: /[#:x,\/]\d+/ },
        { className: "title", begin: NAME },
      ],
    };
  });

  var blocks = document.querySelectorAll("code.language-easyflow, code.language-topology");
  Array.prototype.forEach.call(blocks, function (block) {
    block.textContent = block.textContent;
    hljs.highlightBlock(block);
  });
})();
