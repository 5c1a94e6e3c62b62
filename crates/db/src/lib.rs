//! The incremental analysis of EasyFlow, on salsa.
//!
//! Queries, in layers (each reads only the layers above it):
//!
//! 1. [`parse`]: the file's lossless tree and syntax errors.
//! 2. [`file_outline`]: the top-level items with their offsets; the steps in
//!    tracked [`StepChunk`]s of about 64 consecutive steps, with
//!    content-defined boundaries and identified by their steps' text hashes
//!    (made by the parser), so an edit changes one chunk and an unchanged
//!    chunk is analysed once.
//! 3. [`chunk_analysis`]: each step of a chunk on its own: a position-free
//!    [`StepSummary`] and its local diagnostics; apart, only when asked
//!    (by the IDE's requests and for placing anchored diagnostics, not by
//!    a check of a valid flow), the relative ranges of its parts
//!    ([`chunk_anchors`]).
//! 4. [`item_index`]: the firewall. Position-free summaries of every step and
//!    required file, shared per chunk: an edit that changes no name,
//!    reference, dependency or attribute (e.g. inside a string literal)
//!    leaves it equal, so salsa backdates it and nothing below re-runs.
//! 5. [`links::links`]: what each chunk's names denote, its steps named by
//!    chunk and place in it rather than by position, updated per edit at the
//!    cost of the edit (the keystroke path); and, by position, for the IDE
//!    and the exports, [`resolve::name_resolution`] (through
//!    [`resolve::names`], rebuilt only when [`resolve::defined_names`]
//!    changes), then [`graph::dependency_graph`].
//! 6. [`diagnostics::semantic_diagnostics`] (the names rules of `rules/`),
//!    [`diagnostics::graph_diagnostics`] (the dependency rules, only when
//!    the links find a cycle),
//!    [`fit::fit_diagnostics`] (against the flow's [`TopologyFile`]) and
//!    the catalog checks of [`catalog`] (against its [`CatalogFile`]),
//!    at [`anchor::Anchor`]s rather than offsets, and
//!    [`diagnostics::rule_diagnostics`], which places everything at byte
//!    ranges and sorts it.
//! 7. [`silence::file_diagnostics`]: the flow's diagnostics as every host
//!    reports them: the rules', silenced by the flow's allow comments and
//!    its `easyflow.toml`'s `[diagnostics]` ([`SourceFile::levels`]), the
//!    denied codes made errors, with W0905 on what an allow comment
//!    silences in vain.

pub mod anchor;
pub mod attributes;
mod beside;
pub mod catalog;
pub mod denotation;
pub mod diagnostics;
pub mod fit;
pub mod graph;
pub mod items;
pub mod levels;
pub mod links;
pub mod resolve;
mod rules;
pub mod silence;
pub mod view;
pub mod workflow;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use easyflow_syntax::SourceText;
use rayon::prelude::*;

pub use easyflow_diagnostics::{Code, Diagnostic, Severity, TextRange, TextSize};
pub use graph::{DependencyGraph, EdgeKind, dependency_graph};
pub use items::{
    ChunkAnalysis, FileOutline, ItemIndex, OutlineStep, StepChunk, StepId, StepSummary,
    chunk_analysis, chunk_anchors, file_outline, item_index,
};
pub use resolve::{Resolution, name_resolution};
pub use salsa::{self, Setter};
pub use silence::file_diagnostics;
pub use view::{GraphEdge, GraphNode, GraphView, UnresolvedName, graph_view};
pub use workflow::{ExpandedWorkflow, expanded_workflow};

/// One flow file: the salsa input. `path` is for messages; the analysis
/// reads `text`, and `topology` (set by the host from what the project
/// loader found, `easyflow-project`) for the fit check only. This crate
/// reads no file: the hosts do, and set the inputs.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    /// Shared with the host (an editor's open document), so setting it
    /// copies nothing; a rope once edited (`SourceText`).
    #[returns(ref)]
    pub text: SourceText,
    #[default]
    #[returns(copy)]
    pub topology: Option<TopologyFile>,
    /// The package catalog, set by the host after discovery like `topology`;
    /// `None`: no E08xx, and package names are free.
    #[default]
    #[returns(copy)]
    pub catalog: Option<CatalogFile>,
    /// What its `easyflow.toml`'s `[diagnostics]` allows and denies, set
    /// by the host from the project loader like `topology`.
    #[default]
    #[returns(ref)]
    pub levels: easyflow_diagnostics::allow::CodeLevels,
    /// The parse of `text` when the host already has it (from an
    /// incremental reparse, `easyflow_syntax::reparse`); `None` otherwise.
    /// The host keeps it in step with `text`.
    #[default]
    #[returns(ref)]
    pub reparsed: Option<easyflow_syntax::Parse>,
}

/// A `.topology` file: the salsa input.
#[salsa::input(debug)]
pub struct TopologyFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: String,
}

/// A package catalog (`easyflow-packages.toml`): the salsa input. Bytes,
/// since a catalog that is not UTF-8 is itself a diagnostic (E0810).
#[salsa::input(debug)]
pub struct CatalogFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub bytes: Vec<u8>,
}

/// A catalog's packages and its own diagnostics (E0810).
#[salsa::tracked(returns(ref))]
pub fn parse_catalog(db: &dyn Db, file: CatalogFile) -> easyflow_catalog::Catalog {
    easyflow_catalog::parse_bytes(file.bytes(db))
}

/// A topology file's worker types and its own diagnostics (E06xx).
#[salsa::tracked(returns(ref))]
pub fn parse_topology(db: &dyn Db, file: TopologyFile) -> easyflow_topology::Topology {
    easyflow_topology::parse(file.text(db))
}

/// The database every query runs on.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The name tables of the last [`links::links`] of each file (a cache
    /// beside the database; without one, every run starts afresh).
    fn link_states(&self) -> Option<&links::LinkStates> {
        None
    }

    /// The levels of the last [`levels::forward_levels`] of each file (a
    /// cache beside the database; without one, every run starts afresh).
    fn level_states(&self) -> Option<&levels::LevelStates> {
        None
    }
}

/// Layer 1: the file's tree and syntax errors.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> easyflow_syntax::Parse {
    match file.reparsed(db) {
        Some(reparsed) => reparsed.clone(),
        None => easyflow_syntax::parse(&file.text(db).whole()),
    }
}

/// The concrete database, cheap to clone for snapshots.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
    /// The files [`Database::check`] has analysed on every core already
    /// (shared by clones): later checks re-analyse only edited steps.
    primed: Arc<Mutex<rustc_hash::FxHashSet<SourceFile>>>,
    /// See [`Db::link_states`] (shared by clones).
    link_states: Arc<links::LinkStates>,
    /// See [`Db::level_states`] (shared by clones).
    level_states: Arc<levels::LevelStates>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn link_states(&self) -> Option<&links::LinkStates> {
        Some(&self.link_states)
    }

    fn level_states(&self) -> Option<&levels::LevelStates> {
        Some(&self.level_states)
    }
}

/// Files with at least this many steps analyse their steps on every core
/// before a check (see [`Database::check`]); for smaller ones, cloning the
/// database and waking threads costs more than it saves.
const PARALLEL_MIN_STEPS: usize = 2_000;

/// The parts of the chunks each thread of [`Database::analyse_steps_on_every_core`]
/// takes, on average.
const PARTS_PER_THREAD: usize = 4;

impl Database {
    /// A token that cancels what this handle computes: its queries then
    /// unwind with [`salsa::Cancelled`] (for callers that do not name salsa).
    pub fn cancellation_token(&self) -> salsa::CancellationToken {
        salsa::Database::cancellation_token(self)
    }

    /// Drops what is kept beside the database for `file` ([`Db::link_states`],
    /// [`Db::level_states`], whether its steps were analysed on every core):
    /// a removed flow's, which would otherwise stay until its input is
    /// reused, and then hold the next flow's first check to one core.
    pub fn forget_states(&self, file: SourceFile) {
        self.link_states.take(file);
        self.level_states.take(file);
        self.primed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file);
    }

    /// What the first edit of `file` needs and its check left out, to make
    /// off the keystroke path ([`links::EditPreparation`]).
    pub fn edit_preparation(&self, file: SourceFile) -> links::EditPreparation {
        links::EditPreparation {
            states: self.link_states.clone(),
            file,
        }
    }

    /// The file's diagnostics, as [`file_diagnostics`] gives them. On the
    /// first check of a large file, its per-step analyses are run first, on
    /// every core: they are independent, and most of a cold check's
    /// analysis. (After an edit, only the edited steps are analysed again:
    /// running over all steps again would cost more than it saves.)
    pub fn check(&self, file: SourceFile) -> &[Diagnostic] {
        self.analyse_steps_on_every_core(file);
        file_diagnostics(self, file)
    }

    /// The first part of [`Database::check`]: on the first check of a large
    /// file, runs its step analyses on every core (otherwise nothing).
    pub fn analyse_steps_on_every_core(&self, file: SourceFile) {
        let first_check = || {
            self.primed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(file)
        };
        // The search for allow comments reads only the tree (else it runs
        // alone after the analyses, on one core).
        self.on_every_core(
            file,
            first_check,
            |fork, file| {
                silence::allow_comments(fork, file);
            },
            |fork, chunk| {
                chunk_analysis(fork, chunk);
            },
        );
    }

    /// Every step's anchors ([`chunk_anchors`], the ranges of its parts),
    /// which a check computes only for the steps with anchored
    /// diagnostics: on every core for a large file, as the step analyses.
    pub fn anchor_steps_on_every_core(&self, file: SourceFile) {
        self.on_every_core(
            file,
            || true,
            |_, _| {},
            |fork, chunk| {
                chunk_anchors(fork, chunk);
            },
        );
        for chunk in &file_outline(self, file).chunks {
            chunk_anchors(self, chunk.node);
        }
    }

    /// [`Database::check`] for an export, with what the export reads
    /// besides the check: once the steps are analysed on every core, the
    /// check's last phases and then the dependency graph run on one core,
    /// beside which the steps' values are read
    /// ([`Database::read_values_on_every_core`]; they read only the tree,
    /// so neither side waits for the other). A flow with errors is refused
    /// with its values read for nothing: the price of not waiting for the
    /// check.
    pub fn check_for_export(&self, file: SourceFile) -> &[Diagnostic] {
        self.analyse_steps_on_every_core(file);
        let (checking, reading) = (self.clone(), self.clone());
        rayon::join(
            move || {
                file_diagnostics(&checking, file);
                dependency_graph(&checking, file);
            },
            move || reading.read_values_on_every_core(file),
        );
        file_diagnostics(self, file)
    }

    /// The values of a large file's steps ([`workflow::chunk_values`]),
    /// per chunk on every core, for [`expanded_workflow`].
    pub fn read_values_on_every_core(&self, file: SourceFile) {
        self.on_every_core(
            file,
            || true,
            |_, _| {},
            |fork, chunk| {
                workflow::chunk_values(fork, chunk);
            },
        );
    }

    /// For a file of at least [`PARALLEL_MIN_STEPS`] steps when `wanted()`:
    /// `whole` of the file beside `per_chunk` of each chunk, on every core.
    fn on_every_core(
        &self,
        file: SourceFile,
        wanted: impl FnOnce() -> bool,
        whole: impl Fn(&Database, SourceFile) + Sync,
        per_chunk: impl for<'db> Fn(&'db Database, StepChunk<'db>) + Sync,
    ) {
        let steps = file_outline(self, file).step_count();
        let threads = rayon::current_num_threads().min(steps / (PARALLEL_MIN_STEPS / 2));
        if steps >= PARALLEL_MIN_STEPS && threads > 1 && wanted() {
            // One database handle per task; each reads the outline (already
            // computed) through its own handle, as tracked structs belong to
            // it. The tasks: `whole`, and the chunks in a few parts per
            // thread, so that the threads finish together whichever takes
            // `whole`.
            let parts = threads * PARTS_PER_THREAD;
            let forks: Vec<Database> = (0..=parts).map(|_| self.clone()).collect();
            forks.into_par_iter().enumerate().for_each(|(task, fork)| {
                let Some(part) = task.checked_sub(1) else {
                    whole(&fork, file);
                    return;
                };
                let chunks = &file_outline(&fork, file).chunks;
                let share = chunks.len().div_ceil(parts);
                for chunk in chunks.iter().skip(part * share).take(share) {
                    per_chunk(&fork, chunk.node);
                }
            });
        }
    }

    /// A database that records the name of every query it executes, for tests
    /// of incrementality.
    pub fn with_execution_log() -> (Database, ExecutionLog) {
        let log = ExecutionLog::default();
        let sink = log.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                // Spelt `name(Id(n))`; `the_log_names_queries_as_their_functions`
                // checks that the name is the query's function's.
                let key = format!("{database_key:?}");
                let name = key.split('(').next().unwrap_or(&key).to_string();
                sink.0.lock().unwrap_or_else(|e| e.into_inner()).push(name);
            }
        })));
        let database = Database {
            storage,
            primed: Arc::default(),
            link_states: Arc::default(),
            level_states: Arc::default(),
        };
        (database, log)
    }
}

/// A tracked query as the execution log names it. Made by [`query!`] from
/// the query's function, so that a misspelt or renamed query does not
/// compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QueryName(&'static str);

impl QueryName {
    /// For [`query!`] only: `name` must be the query's function's.
    #[doc(hidden)]
    pub const fn of_function(name: &'static str) -> QueryName {
        QueryName(name)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// The [`QueryName`] of the tracked query `function`, named by its path:
/// `query!(file_outline)`, `query!(easyflow_db::resolve::names)`.
#[macro_export]
macro_rules! query {
    ($($segment:ident)::+) => {{
        // The function itself, so that the compiler checks the name.
        let _ = $($segment)::+;
        $crate::QueryName::of_function($crate::last_segment!($($segment)+))
    }};
}

/// For [`query!`]: the last of its identifiers, as a string.
#[doc(hidden)]
#[macro_export]
macro_rules! last_segment {
    ($last:ident) => {
        stringify!($last)
    };
    ($first:ident $($rest:ident)+) => {
        $crate::last_segment!($($rest)+)
    };
}

/// The queries a [`Database::with_execution_log`] database executed.
#[derive(Clone, Default)]
pub struct ExecutionLog(Arc<Mutex<Vec<String>>>);

impl ExecutionLog {
    /// The executed queries since the last call.
    pub fn take(&self) -> Executed {
        Executed(std::mem::take(
            &mut *self.0.lock().unwrap_or_else(|e| e.into_inner()),
        ))
    }
}

/// The names of queries executed, in order ([`ExecutionLog::take`]).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Executed(Vec<String>);

impl Executed {
    /// How many times `query` ran.
    pub fn count(&self, query: QueryName) -> usize {
        self.0.iter().filter(|name| *name == query.as_str()).count()
    }

    pub fn ran(&self, query: QueryName) -> bool {
        self.count(query) > 0
    }

    /// Panics, naming it, if any of `queries` did not run.
    #[track_caller]
    pub fn assert_executed(&self, queries: &[QueryName]) {
        for query in queries {
            assert!(
                self.ran(*query),
                "{} did not re-run: {self:?}",
                query.as_str()
            );
        }
    }

    /// Panics, naming it, if any of `queries` ran.
    #[track_caller]
    pub fn assert_not_executed(&self, queries: &[QueryName]) {
        for query in queries {
            assert!(!self.ran(*query), "{} re-ran: {self:?}", query.as_str());
        }
    }
}

impl std::fmt::Debug for Executed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.0).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{
        chunk_catalog_diagnostics, output_diagnostics, steps_with_catalog_diagnostics,
    };
    use crate::diagnostics::{graph_diagnostics, semantic_diagnostics};
    use crate::fit::fit_diagnostics;
    use crate::links::{links, required_names};
    use crate::resolve::{chunk_resolution, defined_names, names};
    use crate::workflow::chunk_values;

    /// Every tracked query, run on a flow with a topology and a catalog,
    /// is in the log under the name [`query!`] gives it: the names the
    /// incrementality tests assert about are the names the log records.
    #[test]
    fn the_log_names_queries_as_their_functions() {
        let (db, log) = Database::with_execution_log();
        let topology = TopologyFile::new(&db, "t.topology".into(), "compute+CPU:4\n".into());
        let catalog = CatalogFile::new(
            &db,
            "easyflow-packages.toml".into(),
            b"[[package]]\nname = \"P.Q\"\n".to_vec(),
        );
        let text =
            "require f;\nstep A runs P.Q (x = f);\nstep B runs P.Q after B (y = A.outs[\"o\"]);\n";
        let file = SourceFile::builder("a.flow".into(), text.into())
            .topology(Some(topology))
            .catalog(Some(catalog))
            .new(&db);
        file_diagnostics(&db, file);
        name_resolution(&db, file);
        levels::forward_levels(&db, file);
        graph_view(&db, file);
        expanded_workflow(&db, file);
        let executed = log.take();
        let queries = [
            query!(crate::parse),
            query!(parse_topology),
            query!(parse_catalog),
            query!(file_outline),
            query!(chunk_analysis),
            query!(chunk_anchors),
            query!(item_index),
            query!(required_names),
            query!(links),
            query!(defined_names),
            query!(names),
            query!(chunk_resolution),
            query!(name_resolution),
            query!(dependency_graph),
            query!(levels::forward_levels),
            query!(semantic_diagnostics),
            query!(graph_diagnostics),
            query!(fit_diagnostics),
            query!(chunk_catalog_diagnostics),
            query!(steps_with_catalog_diagnostics),
            query!(output_diagnostics),
            query!(file_diagnostics),
            query!(graph_view),
            query!(chunk_values),
            query!(expanded_workflow),
        ];
        for query in queries {
            assert!(
                executed.ran(query),
                "{} is not in {executed:?}",
                query.as_str()
            );
        }
    }
}
