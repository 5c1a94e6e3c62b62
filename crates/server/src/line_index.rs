//! Where each line of an open document starts, updated by each edit at the
//! cost of the edit and of moving the line starts after it (a shift of a
//! `Vec<u32>`), never by rescanning the text: the `line-index` crate builds
//! its index from the whole text (and records every non-ASCII character),
//! which on every keystroke of a large document cost more than the rest of
//! the edit. Columns in UTF-16 are counted from the line's text when asked
//! (lines are short), so nothing per character is stored.
//!
//! Lines end at `\n` (a `\r` before it belongs to the line), as in the
//! `line-index` crate this replaces.

use easyflow_ide::{TextRange, TextSize};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// The offset after each `\n`, in order: where lines 1, 2, … start.
    line_starts: Vec<TextSize>,
    len: TextSize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex {
            line_starts: newlines(text, TextSize::from(0)).collect(),
            len: TextSize::of(text),
        }
    }

    /// The index after `deleted` (a range of the indexed text) was replaced
    /// by `inserted`.
    pub fn edit(&mut self, deleted: TextRange, inserted: &str) {
        // Line starts inside the deleted text or right after its end's `\n`
        // go; so does each one after `deleted.start()` up to `deleted.end()`.
        let first = self
            .line_starts
            .partition_point(|&start| start <= deleted.start());
        let last = self
            .line_starts
            .partition_point(|&start| start <= deleted.end());
        let inserted_len = TextSize::of(inserted);
        let tail = &mut self.line_starts[last..];
        if inserted_len >= deleted.len() {
            let grown = inserted_len - deleted.len();
            tail.iter_mut().for_each(|start| *start += grown);
        } else {
            let shrunk = deleted.len() - inserted_len;
            tail.iter_mut().for_each(|start| *start -= shrunk);
        }
        self.line_starts
            .splice(first..last, newlines(inserted, deleted.start()));
        self.len = self.len - deleted.len() + inserted_len;
    }

    /// The line of `offset` (clamped to the text) and where that line starts.
    pub fn line_of(&self, offset: TextSize) -> (u32, TextSize) {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let start = match line {
            0 => TextSize::from(0),
            _ => self.line_starts[line - 1],
        };
        (line as u32, start)
    }

    /// The range of line `line` with its `\n`, or `None` past the last line.
    pub fn line(&self, line: u32) -> Option<TextRange> {
        let line = line as usize;
        let start = match line {
            0 => TextSize::from(0),
            _ => *self.line_starts.get(line - 1)?,
        };
        let end = self.line_starts.get(line).copied().unwrap_or(self.len);
        Some(TextRange::new(start, end))
    }
}

/// The offsets after each `\n` of `text`, which starts at `base`.
fn newlines(text: &str, base: TextSize) -> impl Iterator<Item = TextSize> + '_ {
    memchr::memchr_iter(b'\n', text.as_bytes()).map(move |at| base + TextSize::from(at as u32 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_their_ranges() {
        let index = LineIndex::new("ab\ncd\r\n\nx");
        assert_eq!(index.line_of(4.into()), (1, 3.into()));
        assert_eq!(index.line_of(8.into()), (3, 8.into()));
        assert_eq!(index.line_of(99.into()), (3, 8.into()));
        assert_eq!(index.line(1), Some(TextRange::new(3.into(), 7.into())));
        assert_eq!(index.line(3), Some(TextRange::new(8.into(), 9.into())));
        assert_eq!(index.line(4), None);
        assert_eq!(
            LineIndex::new("a\n").line(1),
            Some(TextRange::empty(2.into()))
        );
    }

    #[test]
    fn edits_give_the_index_of_the_new_text() {
        let mut text = "one\ntwo\n\nthree\nfour".to_string();
        let mut index = LineIndex::new(&text);
        let mut rng = fastrand::Rng::with_seed(13);
        let pieces = ["", "x", "\n", "a\nb", "\n\n", "\u{fc}\n", "yy\r\n"];
        for _ in 0..3000 {
            let boundary = |at: usize| (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap();
            let start = boundary(rng.usize(..=text.len()));
            let end = boundary(rng.usize(start..=text.len().min(start + 8)));
            let inserted = pieces[rng.usize(..pieces.len())];
            let range = TextRange::new((start as u32).into(), (end as u32).into());
            index.edit(range, inserted);
            text.replace_range(start..end, inserted);
            assert_eq!(
                index,
                LineIndex::new(&text),
                "{text:?} after {range:?} {inserted:?}"
            );
        }
    }
}
