//! One enum for every kind of token and node. The lexer (logos) produces the
//! token kinds directly; the parser adds the node kinds.
//!
//! The token kinds are written here with their logos patterns: they are the
//! lexer's, and `easyflow.ungram` only names them. The node kinds come from
//! `easyflow.ungram` through `generated.rs` (`cargo xtask codegen`), which
//! calls `syntax_kind_enum!` with them.

use logos::Logos;

use crate::lexer::{LexExtras, lex_block_comment, lex_string};

mod generated;

/// Declares [`SyntaxKind`]: the token kinds, the node kinds given, and
/// `ERROR_NODE` last.
macro_rules! syntax_kind_enum {
    ($($node:ident,)*) => {
        #[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[logos(extras = LexExtras)]
        #[repr(u16)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum SyntaxKind {
            // Trivia.
            #[regex(r"[ \t]+")]
            WHITESPACE = 0,
            #[regex(r"[\r\n]+")]
            NEWLINE,
            #[regex(r"//[^\r\n]*", allow_greedy = true)]
            LINE_COMMENT,
            #[token("/*", lex_block_comment)]
            BLOCK_COMMENT,

            // Punctuation.
            #[token("{")]
            L_BRACE,
            #[token("}")]
            R_BRACE,
            #[token("[")]
            L_BRACK,
            #[token("]")]
            R_BRACK,
            #[token("(")]
            L_PAREN,
            #[token(")")]
            R_PAREN,
            #[token("=")]
            EQ,
            #[token(";")]
            SEMICOLON,
            #[token(":")]
            COLON,
            #[token(".")]
            DOT,
            #[token(",")]
            COMMA,
            #[token("~")]
            TILDE,
            #[token("<-")]
            ARROW,

            // Literals and names.
            #[regex(r"[A-Za-z_][A-Za-z0-9_]*", priority = 3)]
            IDENT,
            #[regex(r"@[A-Za-z_][A-Za-z0-9_]*")]
            CONSTANT,
            #[token("\"", lex_string)]
            STRING,
            #[regex(r"[+-]?[0-9]+")]
            INT,
            #[regex(
                r"[+-]?([0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)"
            )]
            DOUBLE,
            /// `pre`/`post` processing code, from `code` to the closing `code end`
            /// (produced by the lexer's driver, not by a logos pattern).
            CODE_BLOCK,

            // Keywords.
            #[token("flow")]
            FLOW_KW,
            #[token("require")]
            REQUIRE_KW,
            #[token("step")]
            STEP_KW,
            #[token("sweep")]
            SWEEP_KW,
            #[token("runs")]
            RUNS_KW,
            #[token("after")]
            AFTER_KW,
            #[token("on")]
            ON_KW,
            #[token("true")]
            TRUE_KW,
            #[token("false")]
            FALSE_KW,
            #[token("pre")]
            PRE_KW,
            #[token("post")]
            POST_KW,
            /// Contextual: lexed as `IDENT`, remapped by the parser before `:`.
            APP_KW,
            /// Contextual: lexed as `IDENT`, remapped by the parser before `:`.
            EXEC_KW,

            /// Text that begins no token. A word with non-ASCII letters matches this
            /// pattern (E0106); other bad characters are logos errors (E0101).
            #[regex(r"[\p{L}_][\p{L}\p{N}_]*", priority = 1)]
            ERROR,
            /// The end of the input: the parser's lookahead past the last token, never in a tree.
            EOF,

            // Nodes, in the order of `easyflow.ungram`.
            $($node,)*
            /// Wraps what the parser could not make sense of.
            ERROR_NODE,
        }
    };
}

generated::node_kinds!(syntax_kind_enum);

use SyntaxKind::*;

impl SyntaxKind {
    pub const LAST: SyntaxKind = ERROR_NODE;

    pub fn is_trivia(self) -> bool {
        matches!(self, WHITESPACE | NEWLINE | LINE_COMMENT | BLOCK_COMMENT)
    }

    pub fn is_keyword(self) -> bool {
        matches!(
            self,
            FLOW_KW
                | REQUIRE_KW
                | STEP_KW
                | SWEEP_KW
                | RUNS_KW
                | AFTER_KW
                | ON_KW
                | TRUE_KW
                | FALSE_KW
                | PRE_KW
                | POST_KW
                | APP_KW
                | EXEC_KW
        )
    }

    pub fn is_literal(self) -> bool {
        matches!(self, STRING | INT | DOUBLE | CONSTANT | TRUE_KW | FALSE_KW)
    }

    pub fn is_node(self) -> bool {
        self > EOF
    }

    /// How the kind reads in "expected X, found Y" messages.
    pub fn describe(self) -> &'static str {
        match self {
            WHITESPACE => "whitespace",
            NEWLINE => "a newline",
            LINE_COMMENT | BLOCK_COMMENT => "a comment",
            L_BRACE => "`{`",
            R_BRACE => "`}`",
            L_BRACK => "`[`",
            R_BRACK => "`]`",
            L_PAREN => "`(`",
            R_PAREN => "`)`",
            EQ => "`=`",
            SEMICOLON => "`;`",
            COLON => "`:`",
            DOT => "`.`",
            COMMA => "`,`",
            TILDE => "`~`",
            ARROW => "`<-`",
            IDENT => "an identifier",
            CONSTANT => "a constant",
            STRING => "a string",
            INT => "an integer",
            DOUBLE => "a number",
            CODE_BLOCK => "a code block",
            FLOW_KW => "`flow`",
            REQUIRE_KW => "`require`",
            STEP_KW => "`step`",
            SWEEP_KW => "`sweep`",
            RUNS_KW => "`runs`",
            AFTER_KW => "`after`",
            ON_KW => "`on`",
            TRUE_KW => "`true`",
            FALSE_KW => "`false`",
            PRE_KW => "`pre`",
            POST_KW => "`post`",
            APP_KW => "`app`",
            EXEC_KW => "`exec`",
            ERROR => "invalid text",
            EOF => "end of file",
            _ => "a syntax node",
        }
    }

    /// The kind for a raw `u16`, or `None` when it names no kind.
    #[inline]
    pub fn from_raw(raw: u16) -> Option<SyntaxKind> {
        if raw <= SyntaxKind::LAST as u16 {
            // SAFETY: `SyntaxKind` is `repr(u16)` with contiguous discriminants
            // from 0 to `LAST`, and `raw` is within that range.
            Some(unsafe { std::mem::transmute::<u16, SyntaxKind>(raw) })
        } else {
            None
        }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

/// The rowan language of EasyFlow trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EasyFlowLanguage {}

impl rowan::Language for EasyFlowLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0).unwrap_or(ERROR_NODE)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

pub type SyntaxNode = rowan::SyntaxNode<EasyFlowLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<EasyFlowLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<EasyFlowLanguage>;
