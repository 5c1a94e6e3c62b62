// Helpers shared by the grammars in ../easyflow and ../topology.
// @ts-check

/**
 * A character class (as source text) of every character but `excluded`.
 * Tree-sitter's negated classes (`[^…]`) also leave out NUL, which our
 * lexer accepts in strings and comments; this one leaves out U+10FFFF (a
 * noncharacter) instead, which keeps NUL in.
 *
 * @param {string} excluded
 * @returns {string}
 */
function anyBut(excluded) {
  const hex = (/** @type {number} */ code) => `\\u{${code.toString(16)}}`;
  const codes = [...excluded].map(c => /** @type {number} */ (c.codePointAt(0)));
  codes.sort((a, b) => a - b);
  const ranges = [];
  let start = 0;
  for (const code of codes) {
    if (code > start) {
      ranges.push(`${hex(start)}-${hex(code - 1)}`);
    }
    start = code + 1;
  }
  ranges.push(`${hex(start)}-${hex(0x10fffe)}`);
  return `[${ranges.join('')}]`;
}

module.exports = { anyBut };
