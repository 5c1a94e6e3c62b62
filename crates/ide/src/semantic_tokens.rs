//! Semantic tokens: what each piece of a flow is, for highlighting.
//!
//! One walk over the green tree (no red nodes: the full-document request
//! runs on files of 10,000 steps), classifying tokens by their kind and
//! their parent node. References are resolved through the analysis: each
//! step's anchors say where its `after` entries, reference heads and members
//! are, and the name resolution what they denote, so a reference to a step
//! is a `function` and one to a required file a `variable`.
//!
//! Tokens come in text order and never overlap; a token may span lines (a
//! string, a block comment, a code block's body): the server splits them.

use std::ops::Range;

use easyflow_db::items::StepAnchors;
use easyflow_db::resolve::Target;
use easyflow_db::{
    Db, ItemIndex, Resolution, SourceFile, StepId, file_outline, item_index, name_resolution, parse,
};
use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::StepMember;
use easyflow_syntax::SyntaxKind::{self, *};
use easyflow_syntax::green::{GreenElementRef, GreenRef, GreenTokenRef};

/// The token types, by index: the legend the server announces. LSP's
/// standard names.
pub const TOKEN_TYPES: &[&str] = &[
    "keyword",
    "function",
    "variable",
    "parameter",
    "property",
    "enumMember",
    "string",
    "number",
    "comment",
    "macro",
    "operator",
    "namespace",
];

/// The token modifiers, by bit: the legend the server announces.
pub const TOKEN_MODIFIERS: &[&str] = &["declaration", "readonly", "defaultLibrary", "async"];

/// A token type, its value an index into [`TOKEN_TYPES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum TokenType {
    /// Keywords, `true`/`false`, the `~` of `~step`, and a code block's
    /// `code <language>` … `code end` markers.
    Keyword = 0,
    /// Step names, where defined and where used.
    Function,
    /// Required files, where declared and where used.
    Variable,
    /// Parameter names.
    Parameter,
    /// Attribute keys and the members of a reference (`outs`, `Result`).
    Property,
    /// Constants (`@high`).
    EnumMember,
    String,
    Number,
    Comment,
    /// The body of a code block (embedded code, never interpreted).
    Macro,
    /// `=` and `<-`.
    Operator,
    /// The segments of a package path.
    Namespace,
}

/// Modifier bits, matching [`TOKEN_MODIFIERS`].
pub mod modifier {
    /// Where a name is defined: a step's name, a `require` entry, a parameter.
    pub const DECLARATION: u32 = 1 << 0;
    /// Required files (inputs bound by the platform).
    pub const READONLY: u32 = 1 << 1;
    /// Constants and the built-in members `outs` and `Result`.
    pub const DEFAULT_LIBRARY: u32 = 1 << 2;
    /// Long-running steps (`~step`), where defined and where used.
    pub const ASYNC: u32 = 1 << 3;
}

use modifier::*;

/// One token: its range, its type (an index into [`TOKEN_TYPES`]) and its
/// modifiers (bits of [`TOKEN_MODIFIERS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SemanticToken {
    pub range: TextRange,
    pub token_type: u32,
    pub modifiers: u32,
}

/// The tokens of `file`, in text order, not overlapping; with `range`, only
/// those that intersect it (and only the nodes that intersect it are
/// visited).
pub fn semantic_tokens(
    db: &dyn Db,
    file: SourceFile,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let parse = parse(db, file);
    let root = GreenRef::root(parse.green());
    let outline = file_outline(db, file);
    let resolution = name_resolution(db, file);
    let index = item_index(db, file);
    let mut highlighter = Highlighter {
        range,
        out: Vec::new(),
        references: Vec::new(),
        long_running: false,
    };
    let mut step = 0;
    for (chunk, items) in root.child_nodes().zip(parse.chunks()) {
        // A chunk outside the range is skipped whole, its steps counted
        // from its list of items.
        if !highlighter.visits(chunk.range()) {
            step += items.steps().len();
            continue;
        }
        for child in chunk.children() {
            match child {
                GreenElementRef::Node(node) => {
                    let is_step = node.kind() == STEP;
                    if highlighter.visits(node.range()) {
                        highlighter.references.clear();
                        highlighter.long_running = false;
                        if is_step && let Some(outline_step) = outline.step(db, StepId(step as u32))
                        {
                            debug_assert_eq!(outline_step.offset, node.range().start());
                            highlighter.long_running = index.steps[step].long_running;
                            resolved_names(
                                index,
                                resolution,
                                StepId(step as u32),
                                outline_step.anchors(db),
                                outline_step.offset,
                                &mut highlighter.references,
                            );
                        }
                        highlighter.node(node, SOURCE_FILE);
                    }
                    if is_step {
                        step += 1;
                    }
                }
                GreenElementRef::Token(token) => highlighter.token(token, SOURCE_FILE, SOURCE_FILE),
            }
        }
    }
    highlighter.out
}

/// The resolved names of one step (its `after` entries, reference heads
/// and members) by absolute start, sorted; unresolved names are left out.
fn resolved_names(
    index: &ItemIndex,
    resolution: &Resolution,
    step: StepId,
    anchors: &StepAnchors,
    offset: TextSize,
    out: &mut Vec<(TextSize, (TokenType, u32))>,
) {
    let summary = &index.steps[step.index()];
    let step_token = |target: StepId| {
        let async_ = index.steps[target.index()].long_running;
        (TokenType::Function, if async_ { ASYNC } else { 0 })
    };
    for (range, target) in anchors
        .dependencies
        .iter()
        .zip(&resolution.dependencies[step.index()])
    {
        if let Some(target) = target {
            out.push((range.start() + offset, step_token(*target)));
        }
    }
    for ((anchor, reference), target) in anchors
        .references
        .iter()
        .zip(&summary.references)
        .zip(&resolution.references[step.index()])
    {
        let head = match target {
            Target::Step(target) => Some(step_token(*target)),
            Target::File(_) => Some((TokenType::Variable, READONLY)),
            Target::Unresolved => None,
        };
        if let Some(head) = head {
            out.push((anchor.head.start() + offset, head));
        }
        for (range, name) in anchor.members.iter().zip(reference.members.iter()) {
            let builtin =
                matches!(target, Target::Step(_)) && StepMember::from_name(name).is_some();
            let modifiers = if builtin { DEFAULT_LIBRARY } else { 0 };
            out.push((range.start() + offset, (TokenType::Property, modifiers)));
        }
    }
    out.sort_unstable_by_key(|(start, _)| *start);
}

struct Highlighter {
    range: Option<TextRange>,
    out: Vec<SemanticToken>,
    /// The current step's resolved names (`after` entries, reference heads
    /// and members) by absolute start, sorted.
    references: Vec<(TextSize, (TokenType, u32))>,
    /// The current step is a `~step`.
    long_running: bool,
}

impl Highlighter {
    /// Whether something at `range` is wanted: it is not empty and
    /// intersects the requested range.
    fn visits(&self, range: TextRange) -> bool {
        !range.is_empty()
            && self
                .range
                .is_none_or(|r| range.start() < r.end() && r.start() < range.end())
    }

    fn push(&mut self, range: TextRange, token_type: TokenType, modifiers: u32) {
        if self.visits(range) {
            self.out.push(SemanticToken {
                range,
                token_type: token_type as u32,
                modifiers,
            });
        }
    }

    /// The tokens of `node`, whose parent is of kind `parent`.
    fn node(&mut self, node: GreenRef<'_>, parent: SyntaxKind) {
        let kind = node.kind();
        for child in node.children() {
            match child {
                GreenElementRef::Node(child) => {
                    if self.visits(child.range()) {
                        self.node(child, kind);
                    }
                }
                GreenElementRef::Token(token) => self.token(token, kind, parent),
            }
        }
    }

    /// A token in a node of kind `node`, itself in one of kind `parent`.
    fn token(&mut self, token: GreenTokenRef<'_>, node: SyntaxKind, parent: SyntaxKind) {
        if !self.visits(token.range) {
            return;
        }
        let (token_type, modifiers) = match token.kind {
            LINE_COMMENT | BLOCK_COMMENT => (TokenType::Comment, 0),
            kind if kind.is_keyword() => (TokenType::Keyword, 0),
            TILDE => (TokenType::Keyword, 0),
            STRING => (TokenType::String, 0),
            INT | DOUBLE => (TokenType::Number, 0),
            CONSTANT => (TokenType::EnumMember, DEFAULT_LIBRARY),
            EQ | ARROW => (TokenType::Operator, 0),
            CODE_BLOCK => return self.code_block(token),
            IDENT => match (node, parent) {
                (NAME, STEP) => {
                    let async_ = if self.long_running { ASYNC } else { 0 };
                    (TokenType::Function, DECLARATION | async_)
                }
                (NAME, REQUIRE) => (TokenType::Variable, DECLARATION | READONLY),
                (NAME, PARAM) => (TokenType::Parameter, DECLARATION),
                (NAME, ATTRIBUTE | FLOW_ATTRIBUTE) => (TokenType::Property, 0),
                (PACKAGE_PATH, _) => (TokenType::Namespace, 0),
                (NAME_REF, _) => {
                    let start = token.range.start();
                    match self.references.binary_search_by_key(&start, |(s, _)| *s) {
                        Ok(found) => self.references[found].1,
                        Err(_) => return,
                    }
                }
                _ => return,
            },
            _ => return,
        };
        self.push(token.range, token_type, modifiers);
    }

    /// `code <language>` and `code end` as keywords, the body between them
    /// as one `macro` token (without the line breaks that delimit it).
    fn code_block(&mut self, token: GreenTokenRef<'_>) {
        let at = |range: Range<usize>| {
            TextRange::new(
                token.range.start() + TextSize::from(range.start as u32),
                token.range.start() + TextSize::from(range.end as u32),
            )
        };
        let parts = CodeBlockParts::of(token.text);
        if token.text.starts_with("code") {
            self.push(at(0..4), TokenType::Keyword, 0);
        }
        if let Some(language) = parts.language {
            self.push(at(language), TokenType::Keyword, 0);
        }
        self.push(at(parts.body), TokenType::Macro, 0);
        if let Some((code, end)) = parts.closing {
            self.push(at(code), TokenType::Keyword, 0);
            self.push(at(end), TokenType::Keyword, 0);
        }
    }
}

/// The parts of a code block token's text, as byte ranges in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodeBlockParts {
    /// The language named after `code` on the first line.
    pub language: Option<Range<usize>>,
    /// The lines between the first line and the closing one, without the
    /// line breaks around them (to the end when there is no closing line);
    /// may be empty.
    pub body: Range<usize>,
    /// The closing line's `code` and `end`.
    pub closing: Option<(Range<usize>, Range<usize>)>,
}

impl CodeBlockParts {
    pub fn of(text: &str) -> CodeBlockParts {
        let header_end = text.find(['\n', '\r']).unwrap_or(text.len());
        let language = text[..header_end].strip_prefix("code").and_then(|rest| {
            let start = 4 + (rest.len() - rest.trim_start().len());
            let len = text[start..header_end]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(header_end - start);
            (len > 0).then_some(start..start + len)
        });
        let body_start = line_after(text, header_end);
        // The closing line, `[ \t]*code[ \t]+end`, is the last line, and
        // the token ends with it.
        let blank = [' ', '\t'];
        let last_line_start = text.rfind(['\n', '\r']).map_or(text.len(), |i| i + 1);
        let closing = (last_line_start >= body_start && last_line_start < text.len())
            .then(|| {
                let line = &text[last_line_start..];
                let code_at = last_line_start + (line.len() - line.trim_start_matches(blank).len());
                let after_code = text[code_at..].strip_prefix("code")?;
                let end = after_code.trim_start_matches(blank);
                (after_code.len() > end.len() && end == "end")
                    .then_some((code_at..code_at + 4, text.len() - 3..text.len()))
            })
            .flatten();
        let body_end = if closing.is_some() {
            let mut end = last_line_start;
            if text[..end].ends_with('\n') {
                end -= 1;
            }
            if text[..end].ends_with('\r') {
                end -= 1;
            }
            end.max(body_start)
        } else {
            text.len()
        };
        CodeBlockParts {
            language,
            body: body_start..body_end,
            closing,
        }
    }
}

/// The start of the line after the line break at `at` (or `at` at the end).
fn line_after(text: &str, at: usize) -> usize {
    let rest = &text[at..];
    if rest.starts_with("\r\n") {
        at + 2
    } else if rest.starts_with(['\n', '\r']) {
        at + 1
    } else {
        at
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use expect_test::{Expect, expect};

    use super::*;
    use crate::fixture::fixture;

    fn render(text: &str, tokens: &[SemanticToken]) -> String {
        let mut out = String::new();
        let mut previous_end = TextSize::from(0);
        for token in tokens {
            assert!(token.range.start() >= previous_end, "overlap at {token:?}");
            assert!(!token.range.is_empty());
            previous_end = token.range.end();
            let modifiers: Vec<&str> = TOKEN_MODIFIERS
                .iter()
                .enumerate()
                .filter(|(bit, _)| token.modifiers & (1 << bit) != 0)
                .map(|(_, name)| *name)
                .collect();
            let _ = write!(
                out,
                "{:?} {}",
                &text[token.range], TOKEN_TYPES[token.token_type as usize]
            );
            if !modifiers.is_empty() {
                let _ = write!(out, " [{}]", modifiers.join(", "));
            }
            out.push('\n');
        }
        out
    }

    fn check(text: &str, expect: Expect) {
        let f = fixture(text);
        let tokens = semantic_tokens(&f.db, f.file, f.range);
        expect.assert_eq(&render(&f.text, &tokens));
    }

    #[test]
    fn every_kind_of_token() {
        check(
            r#"// A demo.
[flow:priority = @high]
require data;
[mode = @urgent]
step Load runs IO.Read after Watch (app: path = data, n = -3, exec: x = sweep [1.5, true]);
/* done
   here */
~step Watch runs S (in <- Load.outs["x"], y = Load.Result.outs.size, z = Nope.outs, w = [Load]);
"#,
            expect![[r#"
                "// A demo." comment
                "flow" keyword
                "priority" property
                "=" operator
                "@high" enumMember [defaultLibrary]
                "require" keyword
                "data" variable [declaration, readonly]
                "mode" property
                "=" operator
                "@urgent" enumMember [defaultLibrary]
                "step" keyword
                "Load" function [declaration]
                "runs" keyword
                "IO" namespace
                "Read" namespace
                "after" keyword
                "Watch" function [async]
                "app" keyword
                "path" parameter [declaration]
                "=" operator
                "data" variable [readonly]
                "n" parameter [declaration]
                "=" operator
                "-3" number
                "exec" keyword
                "x" parameter [declaration]
                "=" operator
                "sweep" keyword
                "1.5" number
                "true" keyword
                "/* done\n   here */" comment
                "~" keyword
                "step" keyword
                "Watch" function [declaration, async]
                "runs" keyword
                "S" namespace
                "in" parameter [declaration]
                "<-" operator
                "Load" function
                "outs" property [defaultLibrary]
                "\"x\"" string
                "y" parameter [declaration]
                "=" operator
                "Load" function
                "Result" property [defaultLibrary]
                "outs" property [defaultLibrary]
                "size" property
                "z" parameter [declaration]
                "=" operator
                "outs" property
                "w" parameter [declaration]
                "=" operator
                "Load" function
            "#]],
        );
    }

    #[test]
    fn a_name_shared_by_a_step_and_a_file_is_the_step() {
        check(
            "require A, f;\nstep A runs P (x = A, y = f[A], z = f.outs);\n",
            expect![[r#"
                "require" keyword
                "A" variable [declaration, readonly]
                "f" variable [declaration, readonly]
                "step" keyword
                "A" function [declaration]
                "runs" keyword
                "P" namespace
                "x" parameter [declaration]
                "=" operator
                "A" function
                "y" parameter [declaration]
                "=" operator
                "f" variable [readonly]
                "A" function
                "z" parameter [declaration]
                "=" operator
                "f" variable [readonly]
                "outs" property
            "#]],
        );
    }

    #[test]
    fn code_blocks() {
        check(
            "step A runs P ()\npre code python\n  print(\"hi\")\n  x = 1\n  code end;\npost code\ncode end\n",
            expect![[r#"
                "step" keyword
                "A" function [declaration]
                "runs" keyword
                "P" namespace
                "pre" keyword
                "code" keyword
                "python" keyword
                "  print(\"hi\")\n  x = 1" macro
                "code" keyword
                "end" keyword
                "post" keyword
                "code" keyword
                "code" keyword
                "end" keyword
            "#]],
        );
        check(
            "step A runs P () post code ruby\r\n  puts 1\r\ncode \t end\r\n",
            expect![[r#"
                "step" keyword
                "A" function [declaration]
                "runs" keyword
                "P" namespace
                "post" keyword
                "code" keyword
                "ruby" keyword
                "  puts 1" macro
                "code" keyword
                "end" keyword
            "#]],
        );
        // Unterminated: the body runs to the end of the file.
        check(
            "step A runs P () post code sh\n  echo 1\n  echo 2\n",
            expect![[r#"
                "step" keyword
                "A" function [declaration]
                "runs" keyword
                "P" namespace
                "post" keyword
                "code" keyword
                "sh" keyword
                "  echo 1\n  echo 2\n" macro
            "#]],
        );
    }

    #[test]
    fn a_range_gives_only_what_it_touches() {
        check(
            "step A runs P (x = 1);\nstep B runs Q (y = A, $0z = \"long\nstring\"$0);\nstep C runs R ();\n",
            expect![[r#"
                "z" parameter [declaration]
                "=" operator
                "\"long\nstring\"" string
            "#]],
        );
        check(
            "step A runs P (x = 1);\nstep B runs Q (y = A.ou$0ts, z = 2);\nstep C runs R ($0);\n",
            expect![[r#"
                "outs" property [defaultLibrary]
                "z" parameter [declaration]
                "=" operator
                "2" number
                "step" keyword
                "C" function [declaration]
                "runs" keyword
                "R" namespace
            "#]],
        );
    }

    #[test]
    fn the_range_variant_agrees_with_the_full_document() {
        let text = "require f;\n// c\nstep A runs P.Q after B (x = f, y = [B.outs[\"o\"], 2]) post code\n x\ncode end\n[priority = @low]\n~step B runs R (s <- A);\n";
        let f = fixture(text);
        let full = semantic_tokens(&f.db, f.file, None);
        for start in 0..text.len() {
            for end in start + 1..=text.len() {
                let range = TextRange::new((start as u32).into(), (end as u32).into());
                let expected: Vec<SemanticToken> = full
                    .iter()
                    .filter(|t| t.range.start() < range.end() && range.start() < t.range.end())
                    .copied()
                    .collect();
                assert_eq!(
                    semantic_tokens(&f.db, f.file, Some(range)),
                    expected,
                    "{range:?}"
                );
            }
        }
    }

    #[test]
    fn broken_text_still_highlights() {
        check(
            "step after runs P (x = шаг.outs, = 3, y = Unknown, \"s\");\n[flow:",
            expect![[r#"
                "step" keyword
                "after" keyword
                "runs" keyword
                "P" namespace
                "x" parameter [declaration]
                "=" operator
                "=" operator
                "3" number
                "y" parameter [declaration]
                "=" operator
                "\"s\"" string
                "flow" keyword
            "#]],
        );
    }

    #[test]
    fn large_files() {
        let mut text = String::from("require f;\n");
        for i in 0..2000 {
            let _ = writeln!(
                text,
                "step S{i} runs P.Q after S{} (x = f, y = S{}.outs[\"o\"], z = sweep [1, 2]);",
                i.max(1) - 1,
                i / 2
            );
        }
        let f = fixture(&text);
        let tokens = semantic_tokens(&f.db, f.file, None);
        // Per step: step S runs P Q after S ( x = f , y = S outs "o" , z = sweep [1 2 ] )
        assert_eq!(tokens.len(), 2 + 2000 * 20);
    }
}
