//! The document IR and its printer: Wadler's "prettier printer" as Prettier
//! implements it, over a flat command list instead of a tree.
//!
//! A group is printed flat (its lines as spaces or nothing) when all of it,
//! plus the text that follows it up to the next possible line break, fits in
//! the width; otherwise broken (its lines as newlines), and its inner groups
//! decide for themselves. A hard line, a forced break or a multi-line text
//! inside a group breaks it and every group around it.

/// One command of a document. Texts borrow the source (tokens) or are static.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmd<'a> {
    Text(&'a str),
    /// A comment inside a line: written as text, but of no width when the
    /// printer fits groups (a comment is never moved to fit, and whether it
    /// is written inline or as a [`Cmd::LineSuffix`] must not change which
    /// groups fit). One that spans lines breaks its groups, as a text does.
    Comment(&'a str),
    /// A space, written only before more text on the same line: never trailing,
    /// and several in a row are one.
    Space,
    /// A space when flat, a line break when broken.
    Line,
    /// Nothing when flat, a line break when broken.
    SoftLine,
    /// A line break unless the line is still empty.
    HardLine,
    /// A line break and one empty line (at most one in a row; none at the start).
    BlankLine,
    GroupStart,
    GroupEnd,
    IndentStart,
    IndentEnd,
    /// Text only when the innermost group is broken (the trailing comma).
    IfBreak(&'a str),
    /// A trailing comment: written at the end of the line, before its break;
    /// `,` and `;` that follow on the same line are written before it.
    LineSuffix(&'a str),
    /// Breaks the groups around it.
    BreakParent,
}

/// One group, in the order groups start: where it ends, and its flat width
/// ([`MUST_BREAK`] for a group that must break).
#[derive(Clone, Copy)]
struct Group {
    end: u32,
    flat: u32,
}

const MUST_BREAK: u32 = u32::MAX;

fn is_line_break(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// Whether `text` spans lines (bytewise: faster than a `char` search on
/// the short texts of tokens).
fn has_line_break(text: &str) -> bool {
    text.bytes().any(is_line_break)
}

fn text_width(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    }
}

/// The groups of `cmds` into `groups` (cleared first); `stack` is scratch.
fn measure(cmds: &[Cmd<'_>], groups: &mut Vec<Group>, stack: &mut Vec<(usize, u32)>) {
    groups.clear();
    stack.clear();
    let add = |stack: &mut Vec<(usize, u32)>, w: u32| {
        if let Some((_, acc)) = stack.last_mut() {
            *acc = if *acc == MUST_BREAK || w == MUST_BREAK {
                MUST_BREAK
            } else {
                acc.saturating_add(w).min(MUST_BREAK - 1)
            };
        }
    };
    for (i, cmd) in cmds.iter().enumerate() {
        match *cmd {
            Cmd::Text(text) => {
                let w = if has_line_break(text) {
                    MUST_BREAK
                } else {
                    text_width(text).min(MUST_BREAK as usize - 1) as u32
                };
                add(stack, w);
            }
            Cmd::Comment(text) => {
                if has_line_break(text) {
                    add(stack, MUST_BREAK);
                }
            }
            Cmd::Space if beside_comment(cmds, i) => {}
            Cmd::Space | Cmd::Line => add(stack, 1),
            Cmd::SoftLine | Cmd::IfBreak(_) | Cmd::LineSuffix(_) => {}
            Cmd::HardLine | Cmd::BlankLine | Cmd::BreakParent => add(stack, MUST_BREAK),
            Cmd::GroupStart => {
                stack.push((groups.len(), 0));
                groups.push(Group { end: 0, flat: 0 });
            }
            Cmd::GroupEnd => {
                let (ordinal, width) = stack.pop().expect("balanced groups");
                groups[ordinal] = Group {
                    end: i as u32,
                    flat: width,
                };
                add(stack, width);
            }
            Cmd::IndentStart | Cmd::IndentEnd => {}
        }
    }
    debug_assert!(stack.is_empty(), "balanced groups");
}

/// Prints `cmds` with lines of at most `width` characters where possible,
/// `indent` spaces per level and `newline` between lines.
#[cfg(test)]
pub(crate) fn print(
    cmds: &[Cmd<'_>],
    width: usize,
    indent: usize,
    newline: &str,
    capacity: usize,
) -> String {
    let mut printer = Printer::new(width, indent, newline, capacity);
    printer.print(cmds);
    printer.finish()
}

impl<'a, 'n> Printer<'a, 'n> {
    /// A printer of lines of at most `width` characters where possible,
    /// `indent` spaces per level and `newline` between lines, into a text
    /// of `capacity` bytes reserved.
    pub(crate) fn new(width: usize, indent: usize, newline: &'n str, capacity: usize) -> Self {
        Printer {
            out: String::with_capacity(capacity),
            newline,
            width,
            unit: indent,
            indent: 0,
            col: 0,
            line_start: true,
            space: false,
            blank: true,
            suffix: Vec::new(),
            extra_indent: 0,
            comment_width: 0,
            after_comment: false,
            scratch: Scratch::default(),
        }
    }

    /// Prints `cmds`, a whole document or one part after another (each part
    /// with its groups closed and ending where a line breaks, as top-level
    /// items do), so a document's commands need not all be held at once.
    pub(crate) fn print(&mut self, cmds: &[Cmd<'a>]) {
        // The scratch of the last part, reused (a part is one item).
        let mut scratch = std::mem::take(&mut self.scratch);
        measure(cmds, &mut scratch.groups, &mut scratch.open);
        let groups = &scratch.groups;
        // Whether each open group is broken; outside every group, lines break.
        let broken = &mut scratch.broken;
        broken.clear();
        let width = self.width;
        let p = &mut *self;
        let mut next_group = 0;
        let mut i = 0;
        while i < cmds.len() {
            let cmd = cmds[i];
            let is_broken = broken.last().copied().unwrap_or(true);
            match cmd {
                Cmd::Text(text) => p.text(text),
                Cmd::Comment(text) => p.comment(text),
                Cmd::Space => p.space = true,
                Cmd::Line | Cmd::SoftLine => {
                    if is_broken {
                        p.hard_line();
                    } else if cmd == Cmd::Line {
                        p.space = true;
                    }
                }
                Cmd::HardLine => p.hard_line(),
                Cmd::BlankLine => p.blank_line(),
                Cmd::GroupStart => {
                    let group = groups[next_group];
                    next_group += 1;
                    // A trailing comment waiting for the end of its line ends it
                    // at the group's opening line break: the group is broken
                    // there, as when it does not fit (else the text after the
                    // break would take the comment's extra indentation, and
                    // formatting the output again would not give it back).
                    let comment_ends_line = !p.suffix.is_empty()
                        && matches!(
                            cmds[i + 1..].iter().find(|c| **c != Cmd::IndentStart),
                            Some(Cmd::Line | Cmd::SoftLine)
                        );
                    let fits = !is_broken
                        || (group.flat != MUST_BREAK && {
                            let col = if p.line_start {
                                p.indent + p.extra_indent
                            } else if !p.suffix.is_empty() && opens_with_token(&cmds[i + 1..]) {
                                // The group's first token ends the trailing
                                // comment's line and starts the next, indented
                                // (see `Printer::text`): it is measured there.
                                p.indent + p.unit
                            } else {
                                // As the group's width, the line's counts no
                                // comment, nor a space beside one.
                                p.col - p.comment_width + usize::from(p.space && !p.after_comment)
                            };
                            let end = group.end as usize;
                            col + group.flat as usize + rest_width(&cmds[end + 1..]) <= width
                        });
                    broken.push(comment_ends_line || !fits);
                }
                Cmd::GroupEnd => {
                    broken.pop();
                }
                Cmd::IndentStart => p.indent += p.unit,
                Cmd::IndentEnd => p.indent -= p.unit,
                Cmd::IfBreak(text) => {
                    if is_broken {
                        p.text(text);
                    }
                }
                Cmd::LineSuffix(comment) => p.suffix.push(comment),
                Cmd::BreakParent => {}
            }
            i += 1;
        }
        debug_assert!(broken.is_empty(), "a part ends with its groups closed");
        self.scratch = scratch;
    }

    /// The text printed.
    pub(crate) fn finish(mut self) -> String {
        self.flush_suffix();
        self.out
    }
}

/// The width of the text after a group, up to the next possible line break
/// (in the broken groups around it, every line breaks).
fn rest_width(rest: &[Cmd<'_>]) -> usize {
    let mut width = 0;
    for (i, cmd) in rest.iter().enumerate() {
        match *cmd {
            Cmd::Text(text) | Cmd::IfBreak(text) => {
                if has_line_break(text) {
                    let first = text.split(['\n', '\r']).next().unwrap_or("");
                    return width + text_width(first);
                }
                width += text_width(text);
            }
            Cmd::Comment(text) if has_line_break(text) => return width,
            Cmd::Space if !beside_comment(rest, i) => width += 1,
            Cmd::Line | Cmd::SoftLine | Cmd::HardLine | Cmd::BlankLine => return width,
            _ => {}
        }
    }
    width
}

/// Whether the first thing `cmds` write is a token that a waiting trailing
/// comment moves to the next line (anything but `,` and `;`), before any
/// line break.
fn opens_with_token(cmds: &[Cmd<'_>]) -> bool {
    for cmd in cmds {
        match *cmd {
            Cmd::Text("") => {}
            Cmd::Text(text) | Cmd::Comment(text) => return text != "," && text != ";",
            Cmd::Line | Cmd::SoftLine | Cmd::HardLine | Cmd::BlankLine => return false,
            _ => {}
        }
    }
    false
}

/// Whether the space `cmds[i]` stands next to a comment: of no width, as
/// the comment.
fn beside_comment(cmds: &[Cmd<'_>], i: usize) -> bool {
    let is_comment = |cmd: Option<&Cmd<'_>>| matches!(cmd, Some(Cmd::Comment(_)));
    is_comment(cmds.get(i + 1)) || (i > 0 && is_comment(cmds.get(i - 1)))
}

pub(crate) struct Printer<'a, 'n> {
    out: String,
    newline: &'n str,
    width: usize,
    unit: usize,
    indent: usize,
    col: usize,
    /// Nothing written on the current line yet (its indentation comes with its first text).
    line_start: bool,
    /// A space is due before the next text on this line.
    space: bool,
    /// The last line written is empty (or nothing was written yet).
    blank: bool,
    suffix: Vec<&'a str>,
    /// Extra indentation of the current line, after a trailing comment forced a break.
    extra_indent: usize,
    /// The columns of the current line taken by inline comments and the
    /// spaces beside them, which fitting a group does not count.
    comment_width: usize,
    /// The last thing written on the current line is an inline comment.
    after_comment: bool,
    scratch: Scratch,
}

/// What [`Printer::print`] works in, kept from one part to the next.
#[derive(Default)]
struct Scratch {
    groups: Vec<Group>,
    /// The open groups while measuring: their ordinal and width so far.
    open: Vec<(usize, u32)>,
    broken: Vec<bool>,
}

impl<'a> Printer<'a, '_> {
    fn text(&mut self, text: &'a str) {
        self.token(text, false);
    }

    fn comment(&mut self, comment: &'a str) {
        self.token(comment, true);
    }

    fn token(&mut self, text: &'a str, is_comment: bool) {
        if text.is_empty() {
            return;
        }
        if !self.suffix.is_empty() && text != "," && text != ";" {
            // A token after a trailing comment on the same line: the comment
            // must end its line, so the token goes on the next, indented.
            self.newline();
            self.extra_indent = self.unit;
        }
        self.write(text, is_comment);
    }

    fn write(&mut self, text: &str, is_comment: bool) {
        if self.line_start {
            let indent = self.indent + self.extra_indent;
            self.out.extend(std::iter::repeat_n(' ', indent));
            self.col = indent;
            self.line_start = false;
        } else if self.space {
            self.out.push(' ');
            self.col += 1;
            if self.after_comment || is_comment {
                self.comment_width += 1;
            }
        }
        self.space = false;
        self.blank = false;
        self.out.push_str(text);
        match text.bytes().rposition(is_line_break) {
            Some(at) => {
                self.col = text_width(&text[at + 1..]);
                // A new line: the last of a comment is all comment.
                self.comment_width = if is_comment { self.col } else { 0 };
            }
            None => {
                let width = text_width(text);
                self.col += width;
                if is_comment {
                    self.comment_width += width;
                }
            }
        }
        self.after_comment = is_comment;
    }

    fn flush_suffix(&mut self) {
        for comment in std::mem::take(&mut self.suffix) {
            self.out.push(' ');
            self.out.push_str(comment);
        }
    }

    fn newline(&mut self) {
        self.flush_suffix();
        self.out.push_str(self.newline);
        self.col = 0;
        self.line_start = true;
        self.space = false;
        self.extra_indent = 0;
        self.comment_width = 0;
        self.after_comment = false;
    }

    fn hard_line(&mut self) {
        if !self.line_start {
            self.newline();
        }
    }

    fn blank_line(&mut self) {
        self.hard_line();
        if !self.blank {
            self.out.push_str(self.newline);
            self.blank = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cmd::*;
    use super::*;

    fn list<'a>(items: &[&'a str]) -> Vec<Cmd<'a>> {
        let mut cmds = vec![GroupStart, Text("["), IndentStart, SoftLine];
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                cmds.extend([Text(","), Line]);
            }
            cmds.push(Text(item));
        }
        cmds.extend([IndentEnd, SoftLine, Text("]"), GroupEnd]);
        cmds
    }

    #[test]
    fn groups_fit_or_break() {
        let cmds = list(&["aaa", "bbb"]);
        assert_eq!(print(&cmds, 10, 2, "\n", 0), "[aaa, bbb]");
        assert_eq!(print(&cmds, 9, 2, "\n", 0), "[\n  aaa,\n  bbb\n]");
    }

    #[test]
    fn text_after_a_group_counts() {
        let mut cmds = list(&["aaa", "bbb"]);
        cmds.push(Text(";"));
        assert_eq!(print(&cmds, 10, 2, "\n", 0), "[\n  aaa,\n  bbb\n];");
    }

    #[test]
    fn trailing_comments_end_their_line() {
        let cmds = [
            GroupStart,
            Text("a"),
            LineSuffix("// c"),
            BreakParent,
            Text(","),
            Line,
            Text("b"),
            GroupEnd,
        ];
        assert_eq!(print(&cmds, 80, 2, "\n", 0), "a, // c\nb");
        let cmds = [Text("a"), LineSuffix("// c"), Space, Text("b")];
        assert_eq!(print(&cmds, 80, 2, "\n", 0), "a // c\n  b");
    }

    #[test]
    fn a_group_after_a_trailing_comment_fits_on_the_next_line() {
        // `[aaa, bbb]` would fit after `x = `, but the comment moves it to
        // the next line, one unit further in, where it does not.
        let mut cmds = vec![Text("x"), Space, Text("="), LineSuffix("// c"), Space];
        cmds.extend(list(&["aaa", "bbb"]));
        assert_eq!(
            print(&cmds, 14, 6, "\n", 0),
            "x = // c\n      [\n      aaa,\n      bbb\n]"
        );
        assert_eq!(print(&cmds, 16, 6, "\n", 0), "x = // c\n      [aaa, bbb]");
    }

    #[test]
    fn inline_comments_take_no_width_on_the_line_either() {
        // `[a = /* comment */ bbb]` fits in 10 as `[a = bbb]` does, inside
        // a broken group as outside one: the comment is no wider there.
        let cmds = [
            GroupStart,
            Text("[a"),
            Space,
            Text("="),
            Space,
            Comment("/* comment */"),
            Space,
            GroupStart,
            IndentStart,
            Line,
            Text("bbb"),
            IndentEnd,
            GroupEnd,
            Text("]"),
            BreakParent,
            GroupEnd,
        ];
        assert_eq!(print(&cmds, 10, 2, "\n", 0), "[a = /* comment */ bbb]");
    }

    #[test]
    fn no_trailing_spaces_and_one_blank_line() {
        let cmds = [
            Text("a"),
            Space,
            HardLine,
            HardLine,
            BlankLine,
            BlankLine,
            Text("b"),
        ];
        assert_eq!(print(&cmds, 80, 2, "\r\n", 0), "a\r\n\r\nb");
        assert_eq!(print(&[BlankLine, Text("a")], 80, 2, "\n", 0), "a");
    }
}
