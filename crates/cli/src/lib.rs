//! The commands of `easyflow` (`../shared/spec/cli.md`) as a library: the
//! binary (`main.rs`) parses the arguments and calls them, and the
//! data-driven analysis tests run `check` and its JSON report in-process.

pub mod check;
pub mod checked;
pub mod explain;
pub mod export;
pub mod fmt;
pub mod graph;
pub mod input;
pub mod parse;
pub mod report;
pub mod run;
pub mod topology;

/// The exit statuses of cli.md.
pub mod exit {
    pub const OK: u8 = 0;
    pub const PROBLEMS: u8 = 1;
    pub const FAILURE: u8 = 2;
}
