//! Positions in lines and columns, for the server and the CLI alike: a
//! text's [`LineIndex`] and, through [`Lines`], the conversion of byte
//! offsets to [`Position`]s (a 0-based line and a column counted in UTF-8
//! bytes or UTF-16 code units, the two encodings LSP negotiates) and back,
//! over a flat or an edited ([`SourceText`]) text. Positions past the end
//! of a line or of the text are clamped, never an error.
//!
//! The index is updated by each edit at the cost of the edit, never by
//! rescanning the text: the `line-index` crate builds its index from the
//! whole text (and records every non-ASCII character), which on every
//! keystroke of a large document cost more than the rest of the edit.
//! Columns in UTF-16 are counted from the line's text when asked (lines are
//! short), so nothing per character is stored.
//!
//! The line starts are kept in chunks of about `CHUNK` lines, each shared
//! (`Arc`) and stored relative to the chunk's own offset: an edit rewrites
//! only the chunks it touches and moves the offsets of the chunks after it
//! (one addition per chunk, not per line), and a copy of the index (when a
//! request or the diagnostics still hold the previous version) copies the
//! chunk list, not the line starts. A 100,000-step flow has about 700,000
//! lines: 700 chunks.
//!
//! Lines end at `\n` (a `\r` before it belongs to the line, and is no column
//! a position can name), as in the `line-index` crate.

use std::sync::Arc;

use easyflow_diagnostics::{TextRange, TextSize};

use crate::SourceText;

/// The most line starts a chunk holds; every chunk but the last holds at
/// least half as many.
const CHUNK: usize = 1024;

#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    /// In order, never empty ones.
    chunks: Vec<Chunk>,
    len: TextSize,
}

#[derive(Debug, Clone)]
struct Chunk {
    /// The offset its `starts` are relative to.
    base: TextSize,
    /// How many line starts the chunks before it hold.
    before: u32,
    /// The offsets after each of its `\n`s, minus `base`, in order.
    starts: Arc<[u32]>,
}

impl Chunk {
    fn first(&self) -> TextSize {
        self.base + TextSize::from(self.starts[0])
    }

    fn last(&self) -> TextSize {
        self.base + TextSize::from(self.starts[self.starts.len() - 1])
    }

    fn absolute(&self) -> impl Iterator<Item = TextSize> + '_ {
        self.starts
            .iter()
            .map(move |&start| self.base + TextSize::from(start))
    }
}

impl PartialEq for LineIndex {
    /// The same line starts, however they are chunked.
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.line_starts().eq(other.line_starts())
    }
}

impl Eq for LineIndex {}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let starts: Vec<TextSize> = newlines(text, TextSize::from(0)).collect();
        let mut chunks = Vec::with_capacity(starts.len() / CHUNK + 1);
        push_chunks(&mut chunks, &starts, 0);
        LineIndex {
            chunks,
            len: TextSize::of(text),
        }
    }

    /// Every line start after the first line's, in order.
    fn line_starts(&self) -> impl Iterator<Item = TextSize> + '_ {
        self.chunks.iter().flat_map(Chunk::absolute)
    }

    /// The index after `deleted` (a range of the indexed text) was replaced
    /// by `inserted`.
    pub fn edit(&mut self, deleted: TextRange, inserted: &str) {
        // The line starts inside the deleted text, or right after its end's
        // `\n`, go: those in (start, end]. They lie in the chunks `touched`;
        // with none there, the chunk before them (where the new ones go) is
        // touched, so lines added at the end do not make a chunk each.
        let from = self
            .chunks
            .partition_point(|chunk| chunk.last() <= deleted.start());
        let to = self
            .chunks
            .partition_point(|chunk| chunk.first() <= deleted.end());
        let mut touched = match from {
            _ if from < to => from..to,
            0 => 0..self.chunks.len().min(1),
            _ => from - 1..from,
        };
        let inserted_len = TextSize::of(inserted);
        let moved = |start: TextSize| {
            if inserted_len >= deleted.len() {
                start + (inserted_len - deleted.len())
            } else {
                start - (deleted.len() - inserted_len)
            }
        };
        let old = &self.chunks[touched.clone()];
        let mut starts: Vec<TextSize> = old
            .iter()
            .flat_map(Chunk::absolute)
            .filter(|&start| start <= deleted.start())
            .chain(newlines(inserted, deleted.start()))
            .chain(
                old.iter()
                    .flat_map(Chunk::absolute)
                    .filter(|&start| start > deleted.end())
                    .map(moved),
            )
            .collect();
        // A small remainder joins the next chunk, so chunks do not dwindle.
        if starts.len() < CHUNK / 2
            && let Some(next) = self.chunks.get(touched.end)
        {
            starts.extend(next.absolute().map(moved));
            touched.end += 1;
        }
        let before = self.chunks.get(touched.start).map_or(0, |c| c.before);
        let mut rebuilt = Vec::with_capacity(starts.len() / CHUNK + 1);
        push_chunks(&mut rebuilt, &starts, before);
        let after = touched.start + rebuilt.len();
        self.chunks.splice(touched, rebuilt);
        // The chunks after the edit move by its length; the count of line
        // starts before each changes by the lines it added or removed.
        let mut before = match after {
            0 => 0,
            _ => self.chunks[after - 1].before + self.chunks[after - 1].starts.len() as u32,
        };
        for chunk in &mut self.chunks[after..] {
            chunk.base = moved(chunk.base);
            chunk.before = before;
            before += chunk.starts.len() as u32;
        }
        self.len = self.len - deleted.len() + inserted_len;
    }

    /// The line of `offset` (clamped to the text) and where that line starts.
    pub fn line_of(&self, offset: TextSize) -> (u32, TextSize) {
        let offset = offset.min(self.len);
        let after = self.chunks.partition_point(|c| c.first() <= offset);
        let Some(chunk) = after.checked_sub(1).map(|i| &self.chunks[i]) else {
            return (0, TextSize::from(0));
        };
        let within = chunk
            .starts
            .partition_point(|&start| chunk.base + TextSize::from(start) <= offset);
        let start = chunk.base + TextSize::from(chunk.starts[within - 1]);
        (chunk.before + within as u32, start)
    }

    /// Where line start number `n` (of line `n + 1`) is.
    fn line_start(&self, n: u32) -> Option<TextSize> {
        let after = self.chunks.partition_point(|c| c.before <= n);
        let chunk = &self.chunks[after.checked_sub(1)?];
        let start = *chunk.starts.get((n - chunk.before) as usize)?;
        Some(chunk.base + TextSize::from(start))
    }

    /// The range of line `line` with its `\n`, or `None` past the last line.
    pub fn line(&self, line: u32) -> Option<TextRange> {
        let start = match line {
            0 => TextSize::from(0),
            _ => self.line_start(line - 1)?,
        };
        let end = self.line_start(line).unwrap_or(self.len);
        Some(TextRange::new(start, end))
    }
}

/// How columns are counted: the position encodings of LSP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// In bytes of UTF-8.
    Utf8,
    /// In UTF-16 code units (LSP's default, and SARIF's).
    Utf16,
}

/// A 0-based line and a column in its [`Encoding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

/// A text with its line index and the encoding its columns are counted
/// in: the one conversion between byte offsets and [`Position`]s.
#[derive(Clone, Copy)]
pub struct Lines<'a> {
    pub index: &'a LineIndex,
    pub text: &'a SourceText,
    pub encoding: Encoding,
}

impl Lines<'_> {
    /// The position of `offset`, clamped to the text; an offset inside a
    /// character counts from that character's start.
    pub fn position(&self, offset: TextSize) -> Position {
        let offset = offset.min(self.text.len());
        let (line, line_start) = self.index.line_of(offset);
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= TextSize::from(1);
        }
        let before = TextRange::new(line_start, end);
        let character = match self.encoding {
            Encoding::Utf8 => usize::from(before.len()),
            // Counted piece by piece: a long line of a rope is not copied.
            Encoding::Utf16 => self
                .text
                .pieces(before)
                .into_iter()
                .flatten()
                .map(|piece| match piece.is_ascii() {
                    true => piece.len(),
                    false => piece.chars().map(char::len_utf16).sum(),
                })
                .sum(),
        };
        Position {
            line,
            character: character as u32,
        }
    }

    /// The byte offset of `position`, clamped into the text and to the end
    /// of its line (before a `\r\n`); a column inside a character lands on
    /// its start.
    pub fn offset(&self, position: Position) -> TextSize {
        let Some(line) = self.index.line(position.line) else {
            return self.text.len();
        };
        // Only the line's last bytes and, in UTF-16, its text up to the
        // column are read: a long line of a rope is not copied.
        let ends_with = |end: &str| {
            line.len() >= TextSize::of(end)
                && self
                    .text
                    .get(TextRange::new(line.end() - TextSize::of(end), line.end()))
                    .is_some_and(|text| text == end)
        };
        let mut line_end = line.end();
        if ends_with("\r\n") {
            line_end -= TextSize::from(2);
        } else if ends_with("\n") {
            line_end -= TextSize::from(1);
        }
        let content = TextRange::new(line.start(), line_end);
        let col = match self.encoding {
            Encoding::Utf8 => position.character as usize,
            Encoding::Utf16 => utf16_to_utf8_column(
                self.text.pieces(content).into_iter().flatten(),
                position.character,
            ),
        };
        let mut offset = line.start() + TextSize::from(col.min(usize::from(content.len())) as u32);
        while !self.text.is_char_boundary(offset) {
            offset -= TextSize::from(1);
        }
        offset.min(line_end)
    }
}

/// The byte column of UTF-16 column `wide` in a line given in pieces (its
/// length when past its end; inside a surrogate pair, that character's
/// start).
fn utf16_to_utf8_column<'a>(line: impl Iterator<Item = &'a str>, wide: u32) -> usize {
    let (mut units, mut bytes) = (0, 0);
    for piece in line {
        for (at, c) in piece.char_indices() {
            units += c.len_utf16();
            if units > wide as usize {
                return bytes + at;
            }
        }
        bytes += piece.len();
    }
    bytes
}

/// Appends `starts` (absolute, in order) as chunks of about [`CHUNK`] line
/// starts, the first with `before` line starts before it.
fn push_chunks(chunks: &mut Vec<Chunk>, starts: &[TextSize], mut before: u32) {
    let count = starts.len().div_ceil(CHUNK);
    for i in 0..count {
        // Even sizes: 1,025 starts make two chunks of 513 and 512.
        let piece = &starts[i * starts.len() / count..(i + 1) * starts.len() / count];
        let base = piece[0];
        chunks.push(Chunk {
            base,
            before,
            starts: piece.iter().map(|&start| u32::from(start - base)).collect(),
        });
        before += piece.len() as u32;
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
        assert_eq!(LineIndex::new("").line_of(0.into()), (0, 0.into()));
        assert_eq!(LineIndex::new("").line(0), Some(TextRange::empty(0.into())));
    }

    /// Every query of `index` answers as a fresh index of `text` does, line
    /// by line (so across chunk boundaries).
    fn check_queries(index: &LineIndex, text: &str) {
        let fresh: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1))
            .collect();
        for (line, &start) in fresh.iter().enumerate() {
            let end = fresh.get(line + 1).copied().unwrap_or(text.len());
            let range = TextRange::new((start as u32).into(), (end as u32).into());
            assert_eq!(index.line(line as u32), Some(range), "line {line}");
            assert_eq!(
                index.line_of(range.start()),
                (line as u32, range.start()),
                "line_of {start}"
            );
        }
        assert_eq!(index.line(fresh.len() as u32), None);
    }

    fn random_edits(mut text: String, pieces: &[&str], edits: usize, width: usize, seed: u64) {
        let mut index = LineIndex::new(&text);
        let mut rng = fastrand::Rng::with_seed(seed);
        for i in 0..edits {
            let boundary = |at: usize| (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap();
            let start = boundary(rng.usize(..=text.len()));
            let end = boundary(rng.usize(start..=text.len().min(start + width)));
            let inserted = pieces[rng.usize(..pieces.len())];
            let range = TextRange::new((start as u32).into(), (end as u32).into());
            // Half the edits apply to a copy still shared with the previous
            // version, as when a request holds it.
            let previous = (i % 2 == 0).then(|| index.clone());
            index.edit(range, inserted);
            text.replace_range(start..end, inserted);
            assert_eq!(
                index,
                LineIndex::new(&text),
                "{text:?} after {range:?} {inserted:?}"
            );
            // Chunks neither dwindle nor grow: the edit's cost stays bounded.
            let sizes: Vec<usize> = index.chunks.iter().map(|c| c.starts.len()).collect();
            if let Some((_, all_but_last)) = sizes.split_last() {
                assert!(all_but_last.iter().all(|&n| n >= CHUNK / 2), "{sizes:?}");
            }
            assert!(sizes.iter().all(|&n| (1..=CHUNK).contains(&n)), "{sizes:?}");
            if i % 50 == 0 {
                check_queries(&index, &text);
            }
            drop(previous);
        }
        check_queries(&index, &text);
    }

    /// Positions and offsets read from a rope (a text edited many times,
    /// with long lines across its chunks) are those read from the same text
    /// flat, in both encodings, also past line ends and past the end.
    #[test]
    fn a_rope_converts_as_its_flat_text() {
        let long = "long line ".repeat(300);
        let pieces = [
            "a",
            "\u{e9}",
            "\u{1f600}",
            "\n",
            "\r\n",
            "\r",
            "xyz ",
            &long,
        ];
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..6 {
            let mut flat = String::new();
            let mut rope = SourceText::default();
            for _ in 0..40 {
                let boundary = |at: usize| (at..).find(|&at| flat.is_char_boundary(at)).unwrap();
                let start = boundary(rng.usize(..=flat.len()));
                let end = boundary(rng.usize(start..=flat.len().min(start + 40)));
                let inserted = pieces[rng.usize(..pieces.len())];
                flat.replace_range(start..end, inserted);
                rope.edit(
                    TextRange::new((start as u32).into(), (end as u32).into()),
                    inserted,
                );
            }
            let index = LineIndex::new(&flat);
            let flat = SourceText::from(flat);
            assert_eq!(rope, flat);
            let line_count = index.line_of(flat.len()).0;
            for encoding in [Encoding::Utf8, Encoding::Utf16] {
                let lines = |text| Lines {
                    index: &index,
                    text,
                    encoding,
                };
                let (rope, flat) = (lines(&rope), lines(&flat));
                for offset in 0..=u32::from(flat.text.len()) + 2 {
                    assert_eq!(
                        rope.position(offset.into()),
                        flat.position(offset.into()),
                        "{encoding:?} offset {offset}"
                    );
                }
                for line in 0..=line_count + 1 {
                    for character in [0, 1, 2, 3, 5, 40, 1_000, 2_500, 5_000] {
                        let position = Position { line, character };
                        assert_eq!(
                            rope.offset(position),
                            flat.offset(position),
                            "{encoding:?} {position:?}"
                        );
                    }
                }
            }
        }
    }

    /// Every character boundary of random texts converts as the
    /// `line-index` crate converts it, both ways, in both encodings.
    #[test]
    fn conversions_agree_with_the_line_index_crate() {
        use line_index::{LineCol, WideEncoding, WideLineCol};
        let pieces = [
            "a",
            "\u{e9}",
            "\u{1f600}",
            "\u{4e2d}",
            "\n",
            "\r\n",
            "\r",
            "  ",
        ];
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..200 {
            let text: String = (0..rng.usize(..60))
                .map(|_| pieces[rng.usize(..pieces.len())])
                .collect();
            let oracle = line_index::LineIndex::new(&text);
            let index = LineIndex::new(&text);
            let source = SourceText::from(text.as_str());
            for encoding in [Encoding::Utf8, Encoding::Utf16] {
                let lines = Lines {
                    index: &index,
                    text: &source,
                    encoding,
                };
                for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
                    let offset = TextSize::from(at as u32);
                    let utf8 = oracle.line_col(offset);
                    let expected = match encoding {
                        Encoding::Utf8 => utf8.col,
                        Encoding::Utf16 => oracle.to_wide(WideEncoding::Utf16, utf8).unwrap().col,
                    };
                    let position = lines.position(offset);
                    assert_eq!(
                        (position.line, position.character),
                        (utf8.line, expected),
                        "{text:?} at {at}"
                    );
                    // Back: the same offset, unless it is inside a `\r\n`,
                    // which no column names (clamped to the line's end).
                    let back = match encoding {
                        Encoding::Utf8 => oracle.offset(LineCol {
                            line: position.line,
                            col: position.character,
                        }),
                        Encoding::Utf16 => oracle
                            .to_utf8(
                                WideEncoding::Utf16,
                                WideLineCol {
                                    line: position.line,
                                    col: position.character,
                                },
                            )
                            .and_then(|utf8| oracle.offset(utf8)),
                    };
                    let expected = if text[at..].starts_with("\r\n") {
                        offset
                    } else if text[..at].ends_with('\r') && text[at..].starts_with('\n') {
                        offset - TextSize::from(1)
                    } else {
                        back.unwrap()
                    };
                    assert_eq!(lines.offset(position), expected, "{text:?} at {at}");
                }
            }
        }
    }

    #[test]
    fn edits_give_the_index_of_the_new_text() {
        let pieces = ["", "x", "\n", "a\nb", "\n\n", "\u{fc}\n", "yy\r\n"];
        random_edits("one\ntwo\n\nthree\nfour".to_string(), &pieces, 3000, 8, 13);
    }

    /// Edits of a text of many chunks: inside one, across several, and
    /// pastes of many lines at once.
    #[test]
    fn edits_across_chunks() {
        let text = "line\n".repeat(5 * CHUNK);
        let block = "x\n".repeat(CHUNK + 7);
        let pieces = ["", "x", "\n", "a\nb\n\n", block.as_str()];
        random_edits(text.clone(), &pieces, 400, 6000, 7);
        random_edits(text, &["", "\n"], 400, 3 * CHUNK * 5, 8);
    }
}
