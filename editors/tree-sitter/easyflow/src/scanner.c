// The tokens of EasyFlow that a regular lexer cannot recognise
// (shared/spec/language.md §1, 1.2), mirroring crates/syntax/src/lexer.rs:
//
// - `~` only when the word `step` follows directly (`~ step` is an error);
// - code blocks: after `pre`/`post`, the word `code`, the rest of its line
//   (the language), the body up to the first line that begins with
//   `[ \t]*code[ \t]+end` (a whole word), and that `code end`.
//
// Stateless: every decision depends on the parse state's valid tokens and
// the text ahead, so there is nothing to serialize.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "word_characters.h"

enum TokenType {
  TILDE,
  CODE_OPEN,
  CODE_LANGUAGE,
  CODE_BODY,
  CODE_CLOSE,
  ERROR_SENTINEL,
};

void *tree_sitter_easyflow_external_scanner_create(void) { return NULL; }

void tree_sitter_easyflow_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_easyflow_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_easyflow_external_scanner_deserialize(void *payload, const char *buffer,
                                                       unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static bool is_blank(int32_t c) { return c == ' ' || c == '\t'; }

static bool is_line_break(int32_t c) { return c == '\n' || c == '\r'; }

static bool is_word_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `c` continues a word for crates/syntax's lexer, which reads a
// letter or digit (`\p{L}`, `\p{N}`) after ASCII text as part of one (bad)
// word: `codeé` is no `code`, `code—` is.
static bool continues_word(int32_t c) {
  if (c < 0x80) {
    return is_word_char(c);
  }
  size_t low = 0;
  size_t high = sizeof(NON_ASCII_WORD_CHARACTERS) / sizeof(NON_ASCII_WORD_CHARACTERS[0]);
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (c < NON_ASCII_WORD_CHARACTERS[middle][0]) {
      high = middle;
    } else if (c > NON_ASCII_WORD_CHARACTERS[middle][1]) {
      low = middle + 1;
    } else {
      return true;
    }
  }
  return false;
}

static void skip_blanks(TSLexer *lexer) {
  while (is_blank(lexer->lookahead)) {
    lexer->advance(lexer, true);
  }
}

// Consumes `word` as far as the text matches it; whether it matched whole.
static bool consume(TSLexer *lexer, const char *word) {
  for (; *word != '\0'; word++) {
    if (lexer->lookahead != *word) {
      return false;
    }
    lexer->advance(lexer, false);
  }
  return true;
}

// At a line start: whether `[ \t]*code[ \t]+end` (a whole word) follows.
// Consumes what it looks at.
static bool at_closing_line(TSLexer *lexer) {
  while (is_blank(lexer->lookahead)) {
    lexer->advance(lexer, false);
  }
  if (!consume(lexer, "code") || !is_blank(lexer->lookahead)) {
    return false;
  }
  while (is_blank(lexer->lookahead)) {
    lexer->advance(lexer, false);
  }
  return consume(lexer, "end") && !is_word_char(lexer->lookahead);
}

// On the block's first line, after `code`: its language, or else the body
// (from the end of that line to the start of the closing line).
static bool scan_header_or_body(TSLexer *lexer, const bool *valid_symbols) {
  skip_blanks(lexer);
  bool at_line_end = is_line_break(lexer->lookahead) || lexer->eof(lexer);
  if (valid_symbols[CODE_LANGUAGE] && !at_line_end) {
    // Up to the line's end, without its trailing blanks.
    while (!is_line_break(lexer->lookahead) && !lexer->eof(lexer)) {
      bool blank = is_blank(lexer->lookahead);
      lexer->advance(lexer, false);
      if (!blank) {
        lexer->mark_end(lexer);
      }
    }
    lexer->result_symbol = CODE_LANGUAGE;
    return true;
  }
  if (!valid_symbols[CODE_BODY] || !is_line_break(lexer->lookahead)) {
    return false;
  }
  for (;;) {
    while (is_line_break(lexer->lookahead)) {
      lexer->advance(lexer, false);
    }
    // The body ends before the closing line.
    lexer->mark_end(lexer);
    if (at_closing_line(lexer)) {
      lexer->result_symbol = CODE_BODY;
      return true;
    }
    while (!is_line_break(lexer->lookahead)) {
      if (lexer->eof(lexer)) {
        // Unterminated (E0105): no token.
        return false;
      }
      lexer->advance(lexer, false);
    }
  }
}

bool tree_sitter_easyflow_external_scanner_scan(void *payload, TSLexer *lexer,
                                                const bool *valid_symbols) {
  (void)payload;
  // Error recovery asks for every token: leave it to the grammar's own lexer.
  if (valid_symbols[ERROR_SENTINEL]) {
    return false;
  }
  if (valid_symbols[CODE_LANGUAGE] || valid_symbols[CODE_BODY]) {
    return scan_header_or_body(lexer, valid_symbols);
  }
  if (valid_symbols[CODE_CLOSE]) {
    skip_blanks(lexer);
    if (!at_closing_line(lexer)) {
      return false;
    }
    lexer->mark_end(lexer);
    lexer->result_symbol = CODE_CLOSE;
    return true;
  }
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || is_line_break(lexer->lookahead)) {
    lexer->advance(lexer, true);
  }
  if (valid_symbols[CODE_OPEN] && lexer->lookahead == 'c') {
    if (consume(lexer, "code") && !continues_word(lexer->lookahead)) {
      lexer->mark_end(lexer);
      lexer->result_symbol = CODE_OPEN;
      return true;
    }
    return false;
  }
  if (valid_symbols[TILDE] && lexer->lookahead == '~') {
    lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    if (consume(lexer, "step") && !continues_word(lexer->lookahead)) {
      lexer->result_symbol = TILDE;
      return true;
    }
  }
  return false;
}
