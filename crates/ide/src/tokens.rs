//! Tokens around a byte offset, as hover and completion look for them: the
//! token at or left of the cursor (by binary search down the tree), and the
//! identifier characters around the cursor inside a string.

use easyflow_diagnostics::{TextRange, TextSize};
use easyflow_syntax::{NodeOrToken, SyntaxNode, SyntaxToken};

/// The token holding the byte at `offset`, found by binary search at each
/// level of the tree: no walk over the siblings of a 10k-step file.
pub(crate) fn token_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let byte = TextRange::at(offset, TextSize::from(1));
    if byte.end() > root.text_range().end() {
        return None;
    }
    let mut node = root.clone();
    loop {
        match node.child_or_token_at_range(byte)? {
            NodeOrToken::Token(token) => return Some(token),
            NodeOrToken::Node(child) => node = child,
        }
    }
}

/// The token that ends at or contains `offset` from the left (the byte
/// before it), as when the user has just typed it.
pub(crate) fn token_left_of(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let before = offset.checked_sub(TextSize::from(1))?;
    token_at(root, before)
}

/// The identifier characters around `offset` inside a string token (its
/// quotes excluded), as an absolute range; `None` when there are none.
pub(crate) fn word_in_string(token: &SyntaxToken, offset: TextSize) -> Option<TextRange> {
    let range = word_range_in_string(token, offset);
    (!range.is_empty()).then_some(range)
}

/// Like [`word_in_string`], but an empty range at `offset` when no
/// identifier characters touch it.
pub(crate) fn word_range_in_string(token: &SyntaxToken, offset: TextSize) -> TextRange {
    let start = token.text_range().start();
    let bytes = token.text().as_bytes();
    let at = usize::from(offset - start).clamp(1.min(bytes.len()), bytes.len());
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let mut left = at;
    while left > 1 && word(&bytes[left - 1]) {
        left -= 1;
    }
    let mut right = at;
    while right < bytes.len() && word(&bytes[right]) {
        right += 1;
    }
    TextRange::new(
        start + TextSize::from(left as u32),
        start + TextSize::from(right as u32),
    )
}
