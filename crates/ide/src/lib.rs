//! The IDE features of easyflow-ls, as plain data in byte offsets: no LSP
//! types, no positions in lines and columns (the server converts at its edge).
//! One module per feature, its tests at the bottom.
//!
//! Every feature takes the database, the [`SourceFile`] and, where it applies,
//! a byte offset; [`defs`] is the shared core: what the name under the cursor
//! defines or refers to, and where else it appears.

pub mod call_hierarchy;
pub mod code_actions;
pub mod code_lens;
pub mod completion;
pub mod defs;
#[cfg(test)]
mod fixture;
pub mod folding;
pub mod graph;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod rename;
pub mod selection_range;
pub mod semantic_tokens;
pub mod symbols;

pub use easyflow_db::{Database, Db, SourceFile};
pub use easyflow_diagnostics::{TextRange, TextSize};

/// A replacement of `range` by `insert`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub insert: String,
}
