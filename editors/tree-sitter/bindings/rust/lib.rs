//! The tree-sitter grammars of EasyFlow: flows (`*.flow`,
//! `shared/spec/language.md`) and project topologies (`*.topology`,
//! `topology.md` §2), with their queries.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_easyflow::LANGUAGE.into())
//!     .expect("the grammar's ABI is supported");
//! let tree = parser.parse("step A runs P ();", None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_easyflow() -> *const ();
    fn tree_sitter_easyflow_topology() -> *const ();
}

/// The flow grammar.
// SAFETY: `tree_sitter_easyflow` is the generated parser's constructor.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_easyflow) };

/// The topology grammar.
// SAFETY: `tree_sitter_easyflow_topology` is the generated parser's constructor.
pub const TOPOLOGY_LANGUAGE: LanguageFn =
    unsafe { LanguageFn::from_raw(tree_sitter_easyflow_topology) };

/// The flow grammar's node types (`node-types.json`).
pub const NODE_TYPES: &str = include_str!("../../easyflow/src/node-types.json");

/// The topology grammar's node types.
pub const TOPOLOGY_NODE_TYPES: &str = include_str!("../../topology/src/node-types.json");

/// Highlights of flows, with Neovim's standard capture names.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../easyflow/queries/highlights.scm");

/// Code blocks in their languages (`ruby`, `python`, shell as `bash`).
pub const INJECTIONS_QUERY: &str = include_str!("../../easyflow/queries/injections.scm");

/// Steps and required files: one scope per flow.
pub const LOCALS_QUERY: &str = include_str!("../../easyflow/queries/locals.scm");

/// Folds (Neovim's `@fold`).
pub const FOLDS_QUERY: &str = include_str!("../../easyflow/queries/folds.scm");

/// Indentation (nvim-treesitter's `@indent.*`).
pub const INDENTS_QUERY: &str = include_str!("../../easyflow/queries/indents.scm");

/// Highlights of topologies.
pub const TOPOLOGY_HIGHLIGHTS_QUERY: &str = include_str!("../../topology/queries/highlights.scm");
