//! A flow's text as the analysis keeps it: flat when it was given whole (a
//! file read from the disk, an editor's `didOpen`), a rope once edited.
//!
//! An 18 MB flow copied once per keystroke cost 3-4 ms at 100,000 steps,
//! more than the rest of the edit. A rope (`crop`: a B-tree of chunks of at
//! most 2 KiB, shared between clones) makes an edit and a clone cost the
//! logarithm of the text. A text read whole stays one allocation: building a
//! rope of it would copy it for nothing (the cold check parses it once), so
//! the first edit builds the rope, at the cost one keystroke used to have.
//!
//! Readers take local slices ([`SourceText::slice`]), which borrow unless
//! they cross a chunk boundary of the rope; [`SourceText::whole`] is for the
//! readers that need the whole text at once (a full parse, formatting) and
//! copies a rope.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crop::Rope;
use easyflow_diagnostics::{TextRange, TextSize};

#[derive(Clone)]
pub struct SourceText(Repr);

#[derive(Clone)]
enum Repr {
    Flat(Arc<str>),
    Rope(Rope),
}

impl SourceText {
    /// The length in bytes.
    pub fn len(&self) -> TextSize {
        TextSize::from(self.byte_len() as u32)
    }

    pub fn is_empty(&self) -> bool {
        self.byte_len() == 0
    }

    fn byte_len(&self) -> usize {
        match &self.0 {
            Repr::Flat(text) => text.len(),
            Repr::Rope(rope) => rope.byte_len(),
        }
    }

    /// Whether `offset` lies on a character boundary (the end included).
    pub fn is_char_boundary(&self, offset: TextSize) -> bool {
        let offset = usize::from(offset);
        match &self.0 {
            Repr::Flat(text) => text.is_char_boundary(offset),
            Repr::Rope(rope) => offset <= rope.byte_len() && rope.is_char_boundary(offset),
        }
    }

    /// The text of `range`, `None` when it is out of bounds or off a
    /// character boundary (as `str::get`).
    pub fn get(&self, range: TextRange) -> Option<Cow<'_, str>> {
        self.pieces(range).map(joined)
    }

    /// The text of `range` in pieces, in order, without copying; `None`
    /// when it is out of bounds or off a character boundary.
    pub fn pieces(&self, range: TextRange) -> Option<impl Iterator<Item = &str>> {
        let bytes = Range::<usize>::from(range);
        match &self.0 {
            Repr::Flat(text) => text.get(bytes).map(|piece| Pieces::One(Some(piece))),
            Repr::Rope(rope) => (self.is_char_boundary(range.start())
                && self.is_char_boundary(range.end()))
            .then(|| Pieces::Rope(rope.byte_slice(bytes).chunks())),
        }
    }

    /// The text of `range`. Panics, as slicing a `str` does, when it is out
    /// of bounds or off a character boundary.
    #[track_caller]
    pub fn slice(&self, range: TextRange) -> Cow<'_, str> {
        match self.get(range) {
            Some(text) => text,
            None => panic!(
                "{range:?} is not a range of a text of {} bytes on character boundaries",
                self.byte_len()
            ),
        }
    }

    /// The whole text, copied if it is a rope.
    pub fn whole(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Flat(text) => Cow::Borrowed(text),
            Repr::Rope(rope) => joined(rope.chunks()),
        }
    }

    /// The same text, flat: `self` shared when it is flat, else one copy.
    /// For readers that look up positions all over the text: a rope's
    /// lookups, one per position, cost more than one copy.
    pub fn flattened(&self) -> SourceText {
        match &self.0 {
            Repr::Flat(_) => self.clone(),
            Repr::Rope(_) => SourceText(Repr::Flat(Arc::from(self.whole()))),
        }
    }

    /// Replaces `range` by `inserted`. Panics when `range` is out of bounds
    /// or off a character boundary. The first edit of a flat text builds its
    /// rope; a rope shared with clones copies only the path to the edit.
    #[track_caller]
    pub fn edit(&mut self, range: TextRange, inserted: &str) {
        assert!(
            self.is_char_boundary(range.start()) && self.is_char_boundary(range.end()),
            "{range:?} is not a range of a text of {} bytes on character boundaries",
            self.byte_len()
        );
        if let Repr::Flat(text) = &self.0 {
            self.0 = Repr::Rope(Rope::from(&**text));
        }
        if let Repr::Rope(rope) = &mut self.0 {
            rope.replace(Range::<usize>::from(range), inserted);
        }
    }
}

/// [`SourceText::pieces`]: lives on the stack for one loop, so the size of
/// crop's iterator does not matter.
#[allow(clippy::large_enum_variant)]
enum Pieces<'a> {
    One(Option<&'a str>),
    Rope(crop::iter::Chunks<'a>),
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            Pieces::One(piece) => piece.take(),
            Pieces::Rope(chunks) => chunks.next(),
        }
    }
}

/// Chunks as one string: borrowed when there is only one.
fn joined<'a>(mut chunks: impl Iterator<Item = &'a str>) -> Cow<'a, str> {
    let Some(first) = chunks.next() else {
        return Cow::Borrowed("");
    };
    match chunks.next() {
        None => Cow::Borrowed(first),
        Some(second) => {
            let mut text = String::with_capacity(first.len() + second.len());
            text.push_str(first);
            text.push_str(second);
            chunks.for_each(|chunk| text.push_str(chunk));
            Cow::Owned(text)
        }
    }
}

impl Default for SourceText {
    fn default() -> SourceText {
        SourceText(Repr::Flat(Arc::from("")))
    }
}

impl From<Arc<str>> for SourceText {
    fn from(text: Arc<str>) -> SourceText {
        SourceText(Repr::Flat(text))
    }
}

impl From<&str> for SourceText {
    fn from(text: &str) -> SourceText {
        SourceText(Repr::Flat(Arc::from(text)))
    }
}

impl From<String> for SourceText {
    fn from(text: String) -> SourceText {
        SourceText(Repr::Flat(Arc::from(text)))
    }
}

impl From<&String> for SourceText {
    fn from(text: &String) -> SourceText {
        SourceText::from(text.as_str())
    }
}

impl PartialEq for SourceText {
    fn eq(&self, other: &SourceText) -> bool {
        match (&self.0, &other.0) {
            (Repr::Flat(a), Repr::Flat(b)) => a == b,
            (Repr::Rope(a), Repr::Rope(b)) => a == b,
            (Repr::Flat(flat), Repr::Rope(rope)) | (Repr::Rope(rope), Repr::Flat(flat)) => {
                *rope == **flat
            }
        }
    }
}

impl Eq for SourceText {}

impl PartialEq<str> for SourceText {
    fn eq(&self, other: &str) -> bool {
        match &self.0 {
            Repr::Flat(text) => **text == *other,
            Repr::Rope(rope) => *rope == *other,
        }
    }
}

impl PartialEq<&str> for SourceText {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for SourceText {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
}

impl fmt::Debug for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.whole(), f)
    }
}

impl fmt::Display for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Flat(text) => f.write_str(text),
            Repr::Rope(rope) => rope.chunks().try_for_each(|chunk| f.write_str(chunk)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(start.into(), end.into())
    }

    #[test]
    fn an_edit_makes_a_rope_with_the_same_text() {
        let mut text = SourceText::from("step A runs P ();\u{e9}\n");
        text.edit(range(5, 6), "Bb");
        assert_eq!(text, "step Bb runs P ();\u{e9}\n");
        assert_eq!(text, SourceText::from("step Bb runs P ();\u{e9}\n"));
        assert_eq!(text.len(), TextSize::from(21));
        assert_eq!(text.slice(range(5, 7)), "Bb");
        assert_eq!(text.get(range(19, 20)), None, "inside \u{e9}");
        assert_eq!(text.get(range(18, 30)), None, "past the end");
        assert_eq!(text.slice(range(18, 21)), "\u{e9}\n");
        assert!(text.is_char_boundary(21.into()));
        assert!(!text.is_char_boundary(19.into()));
        assert!(!text.is_char_boundary(22.into()));
    }

    #[test]
    fn edits_replace_their_range() {
        let edited = |text: &str, (start, end), inserted| {
            let mut text = SourceText::from(text);
            text.edit(range(start, end), inserted);
            text.to_string()
        };
        let text = "ab\u{fc}cd";
        assert_eq!(edited(text, (0, 0), "x"), "xab\u{fc}cd");
        assert_eq!(edited(text, (2, 4), ""), "abcd");
        assert_eq!(edited(text, (6, 6), "\u{1f600}"), "ab\u{fc}cd\u{1f600}");
        assert_eq!(edited(text, (0, 6), ""), "");
        assert_eq!(edited("", (0, 0), ""), "");
        assert_eq!(edited(text, (1, 5), "\n\n"), "a\n\nd");
    }

    #[test]
    fn a_long_text_edited_reads_back_across_chunks() {
        let line = "step A runs P (x = \"\u{1f600}\");\n";
        let mut expected = line.repeat(2_000);
        let mut text = SourceText::from(expected.as_str());
        let shared = text.clone();
        for at in [0, 1_000, 30_000, expected.len()] {
            let at = (at..).find(|&at| expected.is_char_boundary(at)).unwrap();
            text.edit(range(at as u32, at as u32), "// x\n");
            expected.insert_str(at, "// x\n");
        }
        assert_eq!(text.whole(), expected);
        assert_eq!(text.flattened(), expected);
        assert_eq!(text.to_string(), expected);
        let boundary = |at: usize| (at..).find(|&at| expected.is_char_boundary(at)).unwrap() as u32;
        let middle = range(boundary(20_000), boundary(40_000));
        assert_eq!(
            text.slice(middle),
            expected[Range::<usize>::from(middle)],
            "a slice across chunks"
        );
        assert_eq!(shared, *line.repeat(2_000), "a clone keeps its text");
    }

    #[test]
    #[should_panic(expected = "on character boundaries")]
    fn an_edit_off_a_character_boundary_panics() {
        SourceText::from("\u{e9}").edit(range(1, 1), "x");
    }
}
