//! Layer 7: silencing and promoting (`config.md`, "Silencing and promoting
//! diagnostics"), computed once, here, so that every host reports the same
//! list: [`file_diagnostics`] takes the rules' diagnostics
//! ([`crate::diagnostics::rule_diagnostics`]), drops the warnings and notes
//! that an allow comment silences on its line, then applies the flow's
//! levels ([`SourceFile::levels`], from its `easyflow.toml`'s
//! `[diagnostics]`): an allowed code goes, a denied one becomes an error.
//! Each code of an allow comment that silences nothing, is unknown or is an
//! error's gets W0905, to which the levels apply too. Errors are never
//! silenced.
//!
//! Finding the allow comments is incremental: each chunk of the tree
//! ([`easyflow_syntax::ends_chunk`]) is searched once
//! ([`chunk_allow_comments`], keyed by the chunk's green node, which the
//! incremental reparse keeps for every chunk an edit does not touch), so a
//! keystroke searches the chunks it changed; the lines the comments apply
//! to are found from the tree around each comment.

use easyflow_diagnostics::allow::{self, AllowDirective, CodeLevels, Level, Named};
use easyflow_diagnostics::suggest::did_you_mean;
use easyflow_diagnostics::{Code, Diagnostic, Fix, Severity, Tag, TextRange, TextSize};
use easyflow_syntax::green::GreenRef;
use easyflow_syntax::{GreenNode, GreenNodeData, NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken};
use smol_str::SmolStr;

use crate::{Db, SourceFile, parse};

/// Every diagnostic of the flow, as hosts report it (the CLI's reports, the
/// server's, the quick fixes), in the specification's order: the rules',
/// less what allow comments and the levels silence, the denied codes made
/// errors, and W0905 on the allow comments' codes that silence nothing.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let mut diagnostics = crate::diagnostics::rule_diagnostics(db, file);
    let comments = allow_comments(db, file);
    let levels = file.levels(db);
    if comments.is_empty() && levels.is_default() {
        return diagnostics;
    }
    let silenced = silenced_by_comments(comments, &diagnostics);
    let mut unused = unused_codes(comments, &silenced.used);
    let mut index = 0;
    diagnostics.retain(|_| {
        index += 1;
        silenced.diagnostics.binary_search(&(index - 1)).is_err()
    });
    diagnostics.append(&mut unused);
    if !levels.is_default() {
        apply_levels(levels, &mut diagnostics);
    }
    easyflow_diagnostics::sort(&mut diagnostics);
    diagnostics
}

/// An allow comment of the flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowComment {
    /// The comment, from its `//` to its line's end.
    pub range: TextRange,
    /// Its codes as written, with their ranges.
    pub codes: Vec<(TextRange, SmolStr)>,
    /// Where a code added to it goes ([`AllowDirective::insert_at`]).
    pub insert_at: TextSize,
    /// The line it applies to, from its start to its end (before the line
    /// break): its own line when code comes before it there, else the next
    /// line of code (blank and comment lines are skipped); `None` when no
    /// code follows it.
    pub target: Option<TextRange>,
}

impl AllowComment {
    /// Whether a diagnostic whose range starts at `offset` is on the line
    /// the comment applies to.
    pub fn applies_at(&self, offset: TextSize) -> bool {
        self.target
            .is_some_and(|line| line.start() <= offset && offset <= line.end())
    }
}

/// Every allow comment of the flow, in text order.
#[salsa::tracked(returns(ref))]
pub fn allow_comments(db: &dyn Db, file: SourceFile) -> Vec<AllowComment> {
    let parse = parse(db, file);
    let mut comments = Vec::new();
    // The red tree, for the lines around the comments (only if any).
    let mut root: Option<SyntaxNode> = None;
    for chunk in GreenRef::root(parse.green()).child_nodes() {
        let found = chunk_allow_comments(
            db,
            CommentChunk::new(db, ChunkNode(chunk.green().to_owned())),
        );
        if found.is_empty() {
            continue;
        }
        let root = root.get_or_insert_with(|| parse.syntax());
        let offset = chunk.range().start();
        for comment in found {
            let range = comment.range + offset;
            comments.push(AllowComment {
                range,
                codes: comment
                    .codes
                    .iter()
                    .map(|(code_range, code)| (*code_range + offset, code.clone()))
                    .collect(),
                insert_at: comment.insert_at + offset,
                target: target_line(root, range),
            });
        }
    }
    comments
}

/// A chunk of the tree (a child of the root), the key of its search for
/// allow comments. Its identity is its green node's: the incremental
/// reparse keeps the node of every chunk an edit does not touch, and a
/// node is alive (so its address is not reused) while a chunk holds it.
#[salsa::tracked(debug)]
pub struct CommentChunk<'db> {
    #[returns(ref)]
    pub node: ChunkNode,
}

/// A chunk's green node, equal to another (and hashed) by its address.
#[derive(Debug, Clone)]
pub struct ChunkNode(GreenNode);

impl PartialEq for ChunkNode {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(&*self.0, &*other.0)
    }
}

impl Eq for ChunkNode {}

impl std::hash::Hash for ChunkNode {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(&*self.0, state);
    }
}

/// An allow comment of a chunk, relative to the chunk's start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkAllowComment {
    range: TextRange,
    codes: Vec<(TextRange, SmolStr)>,
    insert_at: TextSize,
}

/// The allow comments of one chunk: its line comments that are allow
/// directives ([`allow::parse_directive`]).
#[salsa::tracked(returns(ref))]
pub fn chunk_allow_comments<'db>(
    db: &'db dyn Db,
    chunk: CommentChunk<'db>,
) -> Vec<ChunkAllowComment> {
    let mut found = Vec::new();
    find_allow_comments(&chunk.node(db).0, 0, &mut found);
    found
}

/// The allow comments in `node`, which starts at `offset`: a walk over the
/// green tree that looks only at the kinds and lengths of tokens (a chunk
/// an edit touched is walked whole on each keystroke). A node of one token
/// (a name, a literal) is not entered: trivia lies between a node's
/// children, never at its ends.
fn find_allow_comments(node: &GreenNodeData, mut offset: u32, found: &mut Vec<ChunkAllowComment>) {
    const LINE_COMMENT: u16 = SyntaxKind::LINE_COMMENT as u16;
    for child in node.children() {
        match child {
            NodeOrToken::Node(node) => {
                if node.children().len() > 1 || node.children().any(|c| c.as_node().is_some()) {
                    find_allow_comments(node, offset, found);
                }
                offset += u32::from(node.text_len());
            }
            NodeOrToken::Token(token) => {
                let text = token.text();
                if token.kind().0 == LINE_COMMENT
                    && let Some(AllowDirective { codes, insert_at }) = allow::parse_directive(text)
                {
                    let start = TextSize::from(offset);
                    found.push(ChunkAllowComment {
                        range: TextRange::at(start, TextSize::of(text)),
                        codes: codes
                            .into_iter()
                            .map(|(range, code)| (range + start, SmolStr::new(code)))
                            .collect(),
                        insert_at: insert_at + start,
                    });
                }
                offset += text.len() as u32;
            }
        }
    }
}

/// The line an allow comment at `comment` applies to (see
/// [`AllowComment::target`]).
fn target_line(root: &SyntaxNode, comment: TextRange) -> Option<TextRange> {
    let token = root.token_at_offset(comment.start()).right_biased()?;
    if code_before_on_its_line(&token) {
        return Some(TextRange::new(line_start(&token), comment.start()));
    }
    let mut next = token.next_token();
    while let Some(candidate) = next {
        if !candidate.kind().is_trivia() {
            return Some(TextRange::new(line_start(&candidate), line_end(&candidate)));
        }
        next = candidate.next_token();
    }
    None
}

/// Whether code comes before `token` on its line.
fn code_before_on_its_line(token: &SyntaxToken) -> bool {
    let mut previous = token.prev_token();
    while let Some(candidate) = previous {
        match candidate.kind() {
            SyntaxKind::NEWLINE => return false,
            kind if kind.is_trivia() => {
                if candidate.text().contains('\n') {
                    return false;
                }
            }
            _ => return true,
        }
        previous = candidate.prev_token();
    }
    false
}

/// Where the line that `token` starts on starts.
fn line_start(token: &SyntaxToken) -> TextSize {
    let mut previous = token.prev_token();
    while let Some(candidate) = previous {
        if let Some(newline) = candidate.text().rfind('\n') {
            return candidate.text_range().start() + TextSize::from(newline as u32 + 1);
        }
        previous = candidate.prev_token();
    }
    0.into()
}

/// Where the line that `token` starts on ends (its line break, or the end
/// of the text).
fn line_end(token: &SyntaxToken) -> TextSize {
    let mut next = Some(token.clone());
    let mut end = token.text_range().end();
    while let Some(candidate) = next {
        if let Some(newline) = candidate.text().find(['\r', '\n']) {
            return candidate.text_range().start() + TextSize::from(newline as u32);
        }
        end = candidate.text_range().end();
        next = candidate.next_token();
    }
    end
}

/// What the allow comments silence: the indices of the diagnostics, and
/// for each comment which of its codes silence something.
struct Silenced {
    diagnostics: Vec<usize>,
    /// Per comment, per code: whether it silences a diagnostic.
    used: Vec<Vec<bool>>,
}

/// The warnings and notes each comment's codes silence on its line, in
/// `diagnostics` (sorted by start).
fn silenced_by_comments(comments: &[AllowComment], diagnostics: &[Diagnostic]) -> Silenced {
    let mut silenced = Silenced {
        diagnostics: Vec::new(),
        used: Vec::with_capacity(comments.len()),
    };
    for comment in comments {
        let mut used = vec![false; comment.codes.len()];
        if let Some(line) = comment.target {
            let first = diagnostics.partition_point(|d| d.range.start() < line.start());
            for (index, diagnostic) in diagnostics.iter().enumerate().skip(first) {
                if diagnostic.range.start() > line.end() {
                    break;
                }
                if !allow::can_be_silenced(diagnostic.code) || diagnostic.code == Code::W0905 {
                    continue;
                }
                let mut matched = false;
                for (i, (_, name)) in comment.codes.iter().enumerate() {
                    if name == diagnostic.code.as_str() && !repeats_earlier(comment, i) {
                        used[i] = true;
                        matched = true;
                    }
                }
                if matched {
                    silenced.diagnostics.push(index);
                }
            }
        }
        silenced.used.push(used);
    }
    silenced.diagnostics.sort_unstable();
    silenced.diagnostics.dedup();
    silenced
}

/// Whether the comment's `i`-th code repeats one before it in the comment.
fn repeats_earlier(comment: &AllowComment, i: usize) -> bool {
    comment.codes[..i]
        .iter()
        .any(|(_, name)| *name == comment.codes[i].1)
}

/// W0905 on each code of the comments that silences nothing (`used` says
/// which do), is unknown, is an error's, or repeats one before it.
fn unused_codes(comments: &[AllowComment], used: &[Vec<bool>]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (comment, used) in comments.iter().zip(used) {
        for (i, (range, name)) in comment.codes.iter().enumerate() {
            if used[i] {
                continue;
            }
            let message = match allow::named(name) {
                _ if repeats_earlier(comment, i) => {
                    format!("`{name}` is already listed in this comment")
                }
                Named::Unknown { suggestion } => format!(
                    "unknown code `{name}`{}",
                    did_you_mean(suggestion.map(Code::as_str))
                ),
                Named::Error(code) => format!("`{code}` is an error: errors cannot be silenced"),
                Named::Silenceable(Code::W0905) => {
                    "W0905 cannot be allowed by a comment; allow it in `easyflow.toml`".to_string()
                }
                Named::Silenceable(code) => match comment.target {
                    None => format!("`{code}` silences nothing: no line of code follows"),
                    Some(line) if line.end() == comment.range.start() => {
                        format!("`{code}` silences nothing: there is no {code} on this line")
                    }
                    Some(_) => format!(
                        "`{code}` silences nothing: there is no {code} on the next line of code"
                    ),
                },
            };
            out.push(
                Diagnostic::new(Code::W0905, *range, message)
                    .with_tag(Tag::Unnecessary)
                    .with_fix(Fix::RemoveAllowed),
            );
        }
    }
    out
}

/// The levels of the flow's `easyflow.toml`: allowed codes go, denied ones
/// become errors.
fn apply_levels(levels: &CodeLevels, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.retain_mut(|diagnostic| match levels.level(diagnostic.code) {
        Level::Default => true,
        Level::Allow => false,
        Level::Deny => {
            diagnostic.severity = Severity::Error;
            true
        }
    });
}
