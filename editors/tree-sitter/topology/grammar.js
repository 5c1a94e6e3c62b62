/**
 * @file EasyFlow project topologies (shared/spec/topology.md §2), GPI-Space
 * worker descriptions, for tree-sitter.
 * @license MIT OR Apache-2.0
 *
 * Accepts exactly the texts that easyflow-topology parses without a syntax
 * error (E0601): the differential test in ../tests checks it.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const { anyBut } = require('../common/character-classes.js');

module.exports = grammar({
  name: 'easyflow_topology',

  // Nothing may stand between the parts of a description: separators are
  // part of the grammar.
  extras: _ => [],

  rules: {
    source_file: $ => seq(
      optional($._separator),
      optional(seq(
        $.worker,
        repeat(seq($._separator, $.worker)),
        optional($._separator),
      )),
    ),

    // Whitespace (ASCII, as GPI-Space reads it) and `//` comments, which also
    // end a description: `compute:4// comment`.
    _separator: $ => repeat1(choice(/[ \t\n\f\r]+/, $.comment)),

    comment: _ => token(seq('//', new RegExp(`${anyBut('\n')}*`, 'u'))),

    // Capabilities [#Socket] [:PerNode [xMaxNodes] [,Shm] [/Port]]
    worker: $ => seq(
      field('capabilities', $.capabilities),
      optional(seq('#', field('socket', $.number))),
      optional(seq(
        ':',
        field('per_node', $.number),
        optional(seq('x', field('max_nodes', $.number))),
        optional(seq(',', field('shm', $.number))),
        optional(seq('/', field('port', $.number))),
      )),
    ),

    capabilities: $ => seq($.capability, repeat(seq('+', $.capability))),

    capability: _ => /[A-Za-z_][A-Za-z0-9_]*/,

    // Any number of digits: a value past 64 bits is E0602, no syntax error.
    number: _ => /[0-9]+/,
  },
});
