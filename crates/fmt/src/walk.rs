//! The tree walk: a syntax tree without errors, and the comments attached to
//! its tokens, become the document IR. All layout decisions are here, as
//! groups, indents and lines; the printer only fits groups to the width.
//!
//! Every token is emitted in source order through [`Walker::tok`], which also
//! emits its comments; the walk checks that it meets each token of the text
//! once, in order.

use easyflow_syntax::green::{GreenElementRef, GreenRef, GreenTokenRef};
use easyflow_syntax::{NodeOrToken, SyntaxKind, SyntaxKind::*, TextRange};

use crate::comments::{Comment, Tokens};
use crate::doc::{Cmd, Printer};

pub(crate) struct Walker<'a> {
    text: &'a str,
    tokens: Tokens,
    /// The index of the next token to emit.
    next: usize,
    /// The first and last token of the current item: the item's code emits
    /// the first's leading and the last's trailing comments itself, outside
    /// the item's groups.
    item_first: usize,
    item_last: usize,
    /// A token whose trailing comments are emitted after the group that ends
    /// with it, so that a comment after a value does not break the value's group.
    held: usize,
    /// The commands of the current top-level item: each item is printed
    /// once walked (items are separated by line breaks, and no group spans
    /// two), so the commands of a whole large file are never held at once.
    cmds: Vec<Cmd<'a>>,
    printer: Printer<'a, 'static>,
}

/// A mismatch between the tree and the tokens: a bug, reported, never printed.
#[derive(Debug)]
pub(crate) struct WalkError(pub(crate) String);

type Walk = Result<(), WalkError>;

fn kind_of(element: &GreenElementRef<'_>) -> SyntaxKind {
    match element {
        NodeOrToken::Node(node) => node.kind(),
        NodeOrToken::Token(token) => token.kind,
    }
}

/// The non-trivia children of a node. The walk reads the green tree
/// directly: rowan's `SyntaxNode` would allocate for every node and token.
fn children<'t>(node: &GreenRef<'t>) -> impl Iterator<Item = GreenElementRef<'t>> + use<'t> {
    node.children()
        .filter(|element| !kind_of(element).is_trivia())
}

impl<'a> Walker<'a> {
    pub(crate) fn new(text: &'a str, tokens: Tokens, printer: Printer<'a, 'static>) -> Walker<'a> {
        Walker {
            text,
            cmds: Vec::new(),
            printer,
            tokens,
            next: 0,
            item_first: usize::MAX,
            item_last: usize::MAX,
            held: usize::MAX,
        }
    }

    fn push(&mut self, cmd: Cmd<'a>) {
        self.cmds.push(cmd);
    }

    /// Prints the commands so far.
    fn flush(&mut self) {
        self.printer.print(&self.cmds);
        self.cmds.clear();
    }

    /// The text printed.
    pub(crate) fn finish(mut self) -> String {
        self.flush();
        self.printer.finish()
    }

    fn comment_text(&self, comment: &Comment) -> &'a str {
        &self.text[comment.range]
    }

    /// The leading comments of token `index`. At the top level, an empty line
    /// before a comment or the token is kept (one), and the token starts a line.
    fn leading(&mut self, index: usize, top_level: bool) {
        let count = self.tokens.leading(index).len();
        for k in 0..count {
            let comment = self.tokens.leading(index)[k];
            self.own_line_comment(comment, top_level);
        }
        // An item starts its line; its first comment already did.
        if top_level && count == 0 {
            self.push(if self.tokens.tokens[index].blank_before {
                Cmd::BlankLine
            } else {
                Cmd::HardLine
            });
        }
    }

    /// A comment that is not a trailing one: on its own line, or before code
    /// at the start of its line.
    fn own_line_comment(&mut self, comment: Comment, top_level: bool) {
        if comment.newline_before {
            self.push(if top_level && comment.blank_before {
                Cmd::BlankLine
            } else {
                Cmd::HardLine
            });
        } else {
            self.push(Cmd::Space);
        }
        self.push(Cmd::Comment(self.comment_text(&comment)));
        self.push(if comment.newline_after {
            Cmd::HardLine
        } else {
            Cmd::Space
        });
    }

    fn trailing(&mut self, index: usize) {
        let count = self.tokens.trailing(index).len();
        for k in 0..count {
            let comment = self.tokens.trailing(index)[k];
            let text = self.comment_text(&comment);
            if comment.newline_after {
                self.push(Cmd::LineSuffix(text));
                self.push(Cmd::BreakParent);
            } else {
                self.push(Cmd::Space);
                self.push(Cmd::Comment(text));
                self.push(Cmd::Space);
            }
        }
    }

    /// The index of the next token, checked against the tree's token.
    fn expect(&self, token: &GreenTokenRef<'_>) -> Result<usize, WalkError> {
        let index = self.next;
        match self.tokens.tokens.get(index) {
            Some(t) if t.range == token.range => Ok(index),
            _ => Err(WalkError(format!(
                "the walk met {:?} at {:?} out of order",
                token.kind, token.range
            ))),
        }
    }

    /// Emits a token with its comments (but not the first item token's
    /// leading nor the last's trailing comments: the item emits those).
    fn tok(&mut self, token: &GreenTokenRef<'_>) -> Walk {
        let index = self.expect(token)?;
        if index != self.item_first {
            self.leading(index, false);
        }
        self.separator_keeps_its_line(index);
        self.push(Cmd::Text(&self.text[token.range]));
        if index != self.item_last && index != self.held {
            self.trailing(index);
        }
        self.next += 1;
        Ok(())
    }

    /// A `,` or `;` goes before the comment that ends the line of the token
    /// before it (the printer writes it there), unless it has comments of
    /// its own after it: then it starts the next line, as it did (the
    /// comment before it could not stay trailing after it, nor its own
    /// after the other; see `comments::move_line_ends_to_separators`).
    fn separator_keeps_its_line(&mut self, index: usize) {
        let ends_line = |comments: &[Comment]| comments.last().is_some_and(|c| c.newline_after);
        if index > 0
            && self.tokens.tokens[index].is_separator
            && ends_line(self.tokens.trailing(index - 1))
            && !self.tokens.trailing(index).is_empty()
        {
            self.push(Cmd::HardLine);
        }
    }

    /// Holds the trailing comments of the last token of `node` until
    /// [`Self::release`].
    fn hold(&mut self, node: &GreenRef<'_>) -> usize {
        let previous = self.held;
        self.held = self.last_token_of(node);
        previous
    }

    /// Emits the held trailing comments (after the group that holds them).
    fn release(&mut self, previous: usize) {
        let held = std::mem::replace(&mut self.held, previous);
        if held != self.item_last && held < self.tokens.tokens.len() {
            self.trailing(held);
        }
    }

    /// A token replaced by `IfBreak` (the normalised trailing comma).
    fn tok_if_break(&mut self, token: &GreenTokenRef<'_>, text: &'static str) -> Walk {
        let index = self.expect(token)?;
        self.leading(index, false);
        self.separator_keeps_its_line(index);
        self.push(Cmd::IfBreak(text));
        self.trailing(index);
        self.next += 1;
        Ok(())
    }

    fn last_token_of(&self, node: &GreenRef<'_>) -> usize {
        let end = node.range().end();
        self.tokens
            .tokens
            .partition_point(|t| t.range.start() < end)
            .saturating_sub(1)
    }

    pub(crate) fn source_file(&mut self, root: &GreenRef<'_>) -> Walk {
        let items = root
            .top_level_children()
            .filter(|element| !kind_of(element).is_trivia());
        for element in items {
            let NodeOrToken::Node(item) = element else {
                return Err(WalkError("a token outside every item".into()));
            };
            self.item_first = self.next;
            self.item_last = self.last_token_of(&item);
            self.leading(self.item_first, true);
            match item.kind() {
                FLOW_ATTRIBUTE => self.attribute(&item)?,
                REQUIRE => self.require(&item)?,
                STEP => self.step(&item)?,
                kind => return Err(WalkError(format!("unexpected item {kind:?}"))),
            }
            self.trailing(self.item_last);
            self.flush();
        }
        if self.next != self.tokens.tokens.len() {
            return Err(WalkError("tokens left after the last item".into()));
        }
        let end_comments = self.tokens.end_comments().len();
        for k in 0..end_comments {
            let comment = self.tokens.end_comments()[k];
            self.own_line_comment(comment, true);
        }
        self.push(Cmd::HardLine);
        Ok(())
    }

    /// `[key = value]` and `[flow:key = value]`: a space before `=` (the
    /// value brings the one after it); the other tokens glued.
    fn space_around_eq(&mut self, kind: SyntaxKind) {
        if kind == EQ {
            self.push(Cmd::Space);
        }
    }

    /// A step's `[key = value]` or a flow's `[flow:key = value]`: one group.
    fn attribute(&mut self, node: &GreenRef<'_>) -> Walk {
        self.push(Cmd::GroupStart);
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) => {
                    self.space_around_eq(token.kind);
                    self.tok(&token)?;
                }
                NodeOrToken::Node(child) if child.kind() == NAME => self.node_tokens(&child)?,
                NodeOrToken::Node(child) => self.assigned_value(&child, None)?,
            }
        }
        self.push(Cmd::GroupEnd);
        Ok(())
    }

    fn require(&mut self, node: &GreenRef<'_>) -> Walk {
        self.push(Cmd::GroupStart);
        let mut indented = false;
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) => match token.kind {
                    REQUIRE_KW => {
                        self.tok(&token)?;
                        self.push(Cmd::Space);
                        self.push(Cmd::IndentStart);
                        indented = true;
                    }
                    COMMA => {
                        self.tok(&token)?;
                        self.push(Cmd::Line);
                    }
                    _ => {
                        if indented {
                            self.push(Cmd::IndentEnd);
                            indented = false;
                        }
                        self.tok(&token)?;
                    }
                },
                NodeOrToken::Node(child) => self.node_tokens(&child)?,
            }
        }
        if indented {
            self.push(Cmd::IndentEnd);
        }
        self.push(Cmd::GroupEnd);
        Ok(())
    }

    /// Whether any comment stands inside tokens `first..=last`, other than
    /// before the first or after the last.
    fn has_inner_comment(&self, first: usize, last: usize) -> bool {
        (first..=last).any(|i| {
            (i > first && !self.tokens.leading(i).is_empty())
                || (i < last && !self.tokens.trailing(i).is_empty())
        })
    }

    fn step(&mut self, node: &GreenRef<'_>) -> Walk {
        let mut elements = children(node).peekable();
        // Attributes, each on its own line.
        while let Some(NodeOrToken::Node(child)) = elements.peek() {
            if child.kind() != ATTRIBUTE {
                break;
            }
            let child = *child;
            elements.next();
            self.attribute(&child)?;
            self.push(Cmd::HardLine);
        }
        let header_first = self.next;
        if header_first != self.item_first && header_first < self.tokens.tokens.len() {
            self.leading(header_first, false);
        }
        let saved_first = self.item_first;
        self.item_first = header_first;
        self.push(Cmd::GroupStart);
        if self.has_inner_comment(header_first, self.item_last) {
            self.push(Cmd::BreakParent);
        }
        // The header: `[~]step Name`, then `runs Package` and the dependency
        // clauses, each on its own indented line when the header does not fit.
        self.push(Cmd::GroupStart);
        // A trailing comment after the header does not break it.
        let previous_held = self.held;
        if let Some(block) = node.child_nodes().find(|c| c.kind() == PARAM_BLOCK) {
            let start = block.range().start();
            self.held = self
                .tokens
                .tokens
                .partition_point(|t| t.range.start() < start)
                .saturating_sub(1);
        }
        let mut in_header_indent = false;
        let mut has_semicolon = false;
        for element in elements {
            match element {
                NodeOrToken::Token(token) => match token.kind {
                    TILDE => self.tok(&token)?,
                    STEP_KW => {
                        self.tok(&token)?;
                        self.push(Cmd::Space);
                    }
                    RUNS_KW => {
                        self.push(Cmd::IndentStart);
                        in_header_indent = true;
                        self.push(Cmd::Line);
                        self.tok(&token)?;
                        self.push(Cmd::Space);
                    }
                    SEMICOLON => {
                        has_semicolon = true;
                        self.tok(&token)?;
                    }
                    kind => return Err(WalkError(format!("unexpected {kind:?} in a step"))),
                },
                NodeOrToken::Node(child) => match child.kind() {
                    NAME | PACKAGE_PATH => self.node_tokens(&child)?,
                    AFTER_CLAUSE | ON_CLAUSE => {
                        self.push(Cmd::Line);
                        self.dependency_clause(&child)?;
                    }
                    PARAM_BLOCK => {
                        if in_header_indent {
                            self.push(Cmd::IndentEnd);
                            in_header_indent = false;
                        }
                        self.push(Cmd::GroupEnd);
                        self.release(previous_held);
                        self.param_block(&child)?;
                    }
                    CODE_SECTION => {
                        self.push(Cmd::HardLine);
                        self.code_section(&child)?;
                    }
                    kind => return Err(WalkError(format!("unexpected {kind:?} in a step"))),
                },
            }
        }
        if in_header_indent {
            // A step without a parameter list cannot be error-free; kept for safety.
            self.push(Cmd::IndentEnd);
            self.push(Cmd::GroupEnd);
        }
        if !has_semicolon {
            self.push(Cmd::Text(";"));
        }
        self.push(Cmd::GroupEnd);
        self.item_first = saved_first;
        Ok(())
    }

    fn dependency_clause(&mut self, node: &GreenRef<'_>) -> Walk {
        self.push(Cmd::GroupStart);
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) => match token.kind {
                    COMMA => {
                        self.tok(&token)?;
                        self.push(Cmd::Line);
                    }
                    _ => {
                        self.tok(&token)?;
                        self.push(Cmd::Space);
                        self.push(Cmd::IndentStart);
                    }
                },
                NodeOrToken::Node(child) => self.node_tokens(&child)?,
            }
        }
        self.push(Cmd::IndentEnd);
        self.push(Cmd::GroupEnd);
        Ok(())
    }

    /// `( … )` inside the step's group: on the step's line when the step is
    /// flat, else `(` and `)` on lines of their own around one parameter
    /// per line, with a trailing comma.
    fn param_block(&mut self, node: &GreenRef<'_>) -> Walk {
        // The last parameter, and whether a `,` follows it in its section.
        let mut last_param: Option<(GreenRef<'_>, bool)> = None;
        let mut has_label = false;
        for section in node.child_nodes() {
            let mut after_param = false;
            for element in children(&section) {
                if let NodeOrToken::Node(param) = element
                    && param.kind() == PARAM
                {
                    last_param = Some((param, false));
                    after_param = true;
                    continue;
                }
                if after_param && let Some((_, has_comma)) = &mut last_param {
                    *has_comma = kind_of(&element) == COMMA;
                }
                after_param = false;
                has_label |= matches!(kind_of(&element), APP_KW | EXEC_KW);
            }
        }
        let mut elements = children(node);
        let Some(NodeOrToken::Token(open)) = elements.next() else {
            return Err(WalkError("a parameter list without `(`".into()));
        };
        let empty = last_param.is_none() && !has_label;
        self.push(if empty { Cmd::Space } else { Cmd::Line });
        self.tok(&open)?;
        self.push(Cmd::IndentStart);
        if !empty {
            self.push(Cmd::SoftLine);
        }
        let mut first_section = true;
        for element in elements {
            match element {
                NodeOrToken::Node(section) => {
                    if !first_section {
                        self.push(Cmd::Line);
                    }
                    first_section = false;
                    self.param_section(&section, last_param.map(|(param, _)| param.range()))?;
                }
                NodeOrToken::Token(close) => {
                    if last_param.is_some_and(|(_, has_comma)| !has_comma) {
                        self.push(Cmd::IfBreak(","));
                    }
                    let index = self.expect(&close)?;
                    self.leading(index, false);
                    self.push(Cmd::IndentEnd);
                    if !empty {
                        self.push(Cmd::SoftLine);
                    }
                    self.push(Cmd::Text(&self.text[close.range]));
                    if index != self.item_last {
                        self.trailing(index);
                    }
                    self.next += 1;
                }
            }
        }
        Ok(())
    }

    fn param_section(&mut self, node: &GreenRef<'_>, last_param: Option<TextRange>) -> Walk {
        let mut labeled = false;
        let mut first_param = true;
        let mut after_last = false;
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) => match token.kind {
                    APP_KW | EXEC_KW => {
                        labeled = true;
                        self.tok(&token)?;
                    }
                    COLON => {
                        self.tok(&token)?;
                        self.push(Cmd::IndentStart);
                    }
                    COMMA if after_last => self.tok_if_break(&token, ",")?,
                    COMMA => self.tok(&token)?,
                    kind => return Err(WalkError(format!("unexpected {kind:?} in parameters"))),
                },
                NodeOrToken::Node(param) => {
                    if labeled || !first_param {
                        self.push(Cmd::Line);
                    }
                    first_param = false;
                    self.param(&param)?;
                    after_last = Some(param.range()) == last_param;
                }
            }
        }
        if labeled {
            self.push(Cmd::IndentEnd);
        }
        Ok(())
    }

    fn param(&mut self, node: &GreenRef<'_>) -> Walk {
        let mut sweep = None;
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) => match token.kind {
                    EQ | ARROW => {
                        self.push(Cmd::Space);
                        self.tok(&token)?;
                    }
                    // `:name`, glued.
                    COLON => self.tok(&token)?,
                    // `sweep` is part of the value (below).
                    SWEEP_KW => sweep = Some(token),
                    kind => return Err(WalkError(format!("unexpected {kind:?} in a parameter"))),
                },
                NodeOrToken::Node(child) if child.kind() == NAME => self.node_tokens(&child)?,
                NodeOrToken::Node(child) => self.assigned_value(&child, sweep.take())?,
            }
        }
        Ok(())
    }

    /// The value after `=`: a list stays on the line of its `=` (it breaks
    /// itself); another value moves to the next line, indented, when it does
    /// not fit after the `=`.
    fn assigned_value(&mut self, value: &GreenRef<'_>, sweep: Option<GreenTokenRef<'_>>) -> Walk {
        if value.kind() == LIST_EXPR {
            self.push(Cmd::Space);
            if let Some(sweep) = &sweep {
                self.tok(sweep)?;
                self.push(Cmd::Space);
            }
            return self.expr(value);
        }
        let previous = self.hold(value);
        self.push(Cmd::GroupStart);
        self.push(Cmd::IndentStart);
        self.push(Cmd::Line);
        if let Some(sweep) = &sweep {
            self.tok(sweep)?;
            self.push(Cmd::Space);
        }
        self.expr(value)?;
        self.push(Cmd::IndentEnd);
        self.push(Cmd::GroupEnd);
        self.release(previous);
        Ok(())
    }

    fn expr(&mut self, node: &GreenRef<'_>) -> Walk {
        match node.kind() {
            LIST_EXPR => self.list(node),
            _ => self.node_tokens(node),
        }
    }

    /// `[a, b]`, or one element per line when it does not fit.
    fn list(&mut self, node: &GreenRef<'_>) -> Walk {
        self.push(Cmd::GroupStart);
        let mut elements = children(node).peekable();
        let Some(NodeOrToken::Token(open)) = elements.next() else {
            return Err(WalkError("a list without `[`".into()));
        };
        self.tok(&open)?;
        self.push(Cmd::IndentStart);
        let empty = matches!(elements.peek(), Some(NodeOrToken::Token(t)) if t.kind == R_BRACK);
        if !empty {
            self.push(Cmd::SoftLine);
        }
        let mut close_index = None;
        for element in elements {
            match element {
                NodeOrToken::Token(token) if token.kind == COMMA => {
                    self.tok(&token)?;
                    self.push(Cmd::Line);
                }
                NodeOrToken::Token(close) => {
                    let index = self.expect(&close)?;
                    self.leading(index, false);
                    self.push(Cmd::IndentEnd);
                    if !empty {
                        self.push(Cmd::SoftLine);
                    }
                    self.push(Cmd::Text(&self.text[close.range]));
                    close_index = Some(index);
                    self.next += 1;
                }
                NodeOrToken::Node(child) => self.expr(&child)?,
            }
        }
        self.push(Cmd::GroupEnd);
        // The comments after `]` stand after the list, outside its group: a
        // line comment there breaks the groups around the list, not the list
        // (once formatted, they follow the `,` after `]`, outside it too).
        if let Some(index) = close_index
            && index != self.item_last
            && index != self.held
        {
            self.trailing(index);
        }
        Ok(())
    }

    /// A node written with its tokens glued (names, package paths,
    /// references), except lists inside it.
    fn node_tokens(&mut self, node: &GreenRef<'_>) -> Walk {
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) => self.tok(&token)?,
                NodeOrToken::Node(child) if child.kind() == LIST_EXPR => self.list(&child)?,
                NodeOrToken::Node(child) => self.node_tokens(&child)?,
            }
        }
        Ok(())
    }

    fn code_section(&mut self, node: &GreenRef<'_>) -> Walk {
        for element in children(node) {
            match element {
                NodeOrToken::Token(token) if matches!(token.kind, PRE_KW | POST_KW) => {
                    self.tok(&token)?;
                    self.push(Cmd::Space);
                }
                NodeOrToken::Token(token) => self.tok(&token)?,
                NodeOrToken::Node(_) => return Err(WalkError("a node in a code section".into())),
            }
        }
        Ok(())
    }
}
