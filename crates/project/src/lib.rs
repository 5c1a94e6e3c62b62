//! The project around the flows, for the CLI and the server alike: every
//! part of easyflow-ls that knows the file system. The analysis
//! (`easyflow-db`) knows none of it; the hosts set what is loaded here as
//! its inputs.
//!
//! - [`workspace`]: the folders a project is checked in, each with its
//!   settings, and the boundary of what an `easyflow.toml` may name.
//! - [`walk`]: finding the files of a folder.
//! - [`disk`]: reading one file (regular files only, without blocking,
//!   within its kind's size limit), what kind a file is by its name
//!   ([`FileKind::by_name`]), and why a file is skipped ([`SkipReason`]).
//! - [`config`]: `easyflow.toml`, parsed, and its `[format]` settings as the
//!   formatter's options.
//! - [`discovery`]: the rules that choose a flow's topology and catalog,
//!   and what an `easyflow.toml` names that cannot be used (E0903).
//! - [`loader`]: the [`Loader`] that runs them for the hosts, reading each
//!   file once and saying each skipped file once.

pub mod config;
pub mod discovery;
pub mod disk;
pub mod loader;
pub mod walk;
pub mod workspace;

pub use disk::{FileKind, ReadError, SkipReason, SpecialFile};
pub use loader::{FlowFiles, Loaded, Loader, Skipped};
pub use workspace::{Folder, PathSettings, Workspace};
