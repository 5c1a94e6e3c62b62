/**
 * @file The EasyFlow workflow language (shared/spec/language.md) for tree-sitter.
 * @license MIT OR Apache-2.0
 *
 * Accepts exactly the texts that easyflow-syntax parses without a syntax
 * error (E0100–E0107): the differential test in ../tests checks it.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const { anyBut } = require('../common/character-classes.js');

// Reserved everywhere: never names (language.md §1). `app` and `exec` are
// contextual (section labels before `:`, names elsewhere), so they are
// keywords of the grammar but not reserved.
const RESERVED = [
  'flow', 'require', 'step', 'sweep', 'runs', 'after', 'on', 'true', 'false', 'pre', 'post',
];

/**
 * A regular expression (as source text) for the decimal numerals, leading
 * zeros allowed, whose value is at most `max` (a string of digits): integers
 * must fit in 64 bits (E0107).
 *
 * @param {string} max
 * @returns {string}
 */
function atMost(max) {
  const alternatives = [`[0-9]{1,${max.length - 1}}`];
  for (let i = 0; i < max.length; i++) {
    const digit = Number(max[i]);
    const lowest = i === 0 ? 1 : 0;
    if (digit > lowest) {
      const rest = max.length - i - 1;
      alternatives.push(
        `${max.slice(0, i)}[${lowest}-${digit - 1}]${rest > 0 ? `[0-9]{${rest}}` : ''}`,
      );
    }
  }
  alternatives.push(max);
  return `0*(${alternatives.join('|')})`;
}

/**
 * One or more `rule` separated by `separator`.
 *
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} separator
 */
function sep1(rule, separator) {
  return seq(rule, repeat(seq(separator, rule)));
}

module.exports = grammar({
  name: 'easyflow',

  word: $ => $.identifier,

  reserved: {
    global: _ => RESERVED,
  },

  extras: $ => [/[ \t\r\n]/, $.comment],

  externals: $ => [
    // `~` directly followed by the word `step` (whitespace between is E0100).
    $._tilde,
    // After `pre`/`post`, the word `code` opening a code block.
    $._code_open,
    // The rest of the block's first line: its language (`ruby`, `python`, …).
    $.code_language,
    // The verbatim text up to the line that closes the block.
    $.code_body,
    // `code end` at the start of a line (after optional blanks).
    $._code_close,
    // Never produced: valid only during error recovery, which it signals.
    $._error_sentinel,
  ],

  // After `app:` or a parameter's comma, `exec` may begin the `exec:`
  // section or be the next parameter's name: the token after it decides,
  // so both parses go on (GLR) until it comes.
  conflicts: $ => [
    [$.app_section],
    [$._parameter_list],
  ],

  rules: {
    source_file: $ => repeat(choice($.flow_attribute, $.require, $.step)),

    flow_attribute: $ => seq(
      '[', 'flow', ':', field('key', $._name), '=', field('value', $._expression), ']',
    ),

    require: $ => seq('require', sep1($._name, ','), ';'),

    step: $ => seq(
      repeat($.attribute),
      optional(field('long_running', alias($._tilde, '~'))),
      'step',
      field('name', $._name),
      'runs',
      field('package', $.package_path),
      optional(choice($.after_clause, $.on_clause)),
      field('parameters', $.parameters),
      repeat($.code_section),
      optional(';'),
    ),

    attribute: $ => seq('[', field('key', $._name), '=', field('value', $._expression), ']'),

    package_path: $ => sep1($._name, '.'),

    after_clause: $ => seq('after', sep1($._name, ',')),

    // Reserved for event-driven transitions: parses, then E0408 (not supported).
    on_clause: $ => seq('on', sep1($._name, ',')),

    // `( [app: …] […] [exec: …] )`: the `app:` section opens the list, and
    // its parameters run up to `exec:`; other parameters stand unlabelled.
    parameters: $ => seq(
      '(',
      optional(choice($.app_section, $._parameter_list)),
      optional($.exec_section),
      ')',
    ),

    app_section: $ => seq('app', ':', optional($._parameter_list)),

    exec_section: $ => seq('exec', ':', $._parameter_list),

    // Parameter lists allow a trailing comma.
    _parameter_list: $ => seq(sep1($.parameter, ','), optional(',')),

    parameter: $ => seq(
      optional(':'),
      field('name', $._name),
      field('operator', choice('=', '<-')),
      optional('sweep'),
      field('value', $._expression),
    ),

    code_section: $ => seq(choice('pre', 'post'), $.code_block),

    code_block: $ => seq(
      alias($._code_open, 'code'),
      optional(field('language', $.code_language)),
      field('body', $.code_body),
      alias($._code_close, 'code end'),
    ),

    _expression: $ => choice(
      $.string,
      $.integer,
      $.double,
      $.boolean,
      $.constant,
      $.list,
      $.reference,
    ),

    // Lists do not allow a trailing comma.
    list: $ => seq('[', optional(sep1($._expression, ',')), ']'),

    // `input`, `Step.Result.outs`, `Step.outs["file"]`: the head names a
    // step or a required file, the members what it holds.
    reference: $ => seq(
      field('head', $._name),
      optional($.index),
      repeat(seq('.', field('member', $._name), optional($.index))),
    ),

    index: $ => seq('[', $._expression, ']'),

    boolean: _ => choice('true', 'false'),

    // Strings may span lines; an invalid escape is an error (E0103).
    string: $ => seq(
      '"',
      repeat(choice($.string_content, $.escape_sequence)),
      token.immediate('"'),
    ),

    // Precedence over comments: `"// not a comment"`.
    string_content: _ => token.immediate(prec(1, new RegExp(`${anyBut('"\\')}+`, 'u'))),

    escape_sequence: _ => token.immediate(seq(
      '\\',
      choice(/["\\'btnfr]/, /u[0-9a-fA-F]{4}/, /[0-3][0-7]{0,2}/, /[4-7][0-7]?/),
    )),

    integer: _ => token(new RegExp(
      `\\+?${atMost('9223372036854775807')}|-${atMost('9223372036854775808')}`,
    )),

    double: _ => /[+-]?([0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)/,

    constant: _ => /@[A-Za-z_][A-Za-z0-9_]*/,

    // Names: identifiers, and the contextual keywords where they are no label.
    _name: $ => choice(
      $.identifier,
      alias('app', $.identifier),
      alias('exec', $.identifier),
    ),

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,

    comment: _ => token(choice(
      seq('//', new RegExp(`${anyBut('\r\n')}*`, 'u')),
      // Up to the first `*/`.
      seq(
        '/*',
        new RegExp(`${anyBut('*')}*\\*+(${anyBut('/*')}${anyBut('*')}*\\*+)*`, 'u'),
        '/',
      ),
    )),
  },
});
