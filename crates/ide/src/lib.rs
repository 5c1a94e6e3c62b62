//! The IDE features of easyflow-ls, as plain data in byte offsets: no LSP
//! types, no positions in lines and columns (the server converts at its edge).
//! One module per feature, its tests at the bottom.
//!
//! The front door is the pair [`AnalysisHost`] (the one writable database:
//! the host applies changes to it) and [`Analysis`] (a snapshot of it, with
//! one method per feature). Every method of [`Analysis`] returns
//! [`Cancellable`]: a change applied to the host while a snapshot computes
//! cancels the computation, which ends as `Err(Cancelled)` rather than
//! unwinding into the caller. The feature modules are public for tests and
//! for the CLI; they take the database, the [`SourceFile`] and, where it
//! applies, a byte offset. [`defs`] is their shared core: what the name
//! under the cursor defines or refers to, and where else it appears.

mod allow;
pub mod call_hierarchy;
pub mod catalog;
pub mod code_actions;
pub mod code_lens;
pub mod companion;
pub mod completion;
pub mod cross_file;
pub mod defs;
pub mod doc_comments;
mod docs;
pub mod export;
#[cfg(test)]
mod fixture;
pub mod folding;
pub mod formatting;
pub mod graph;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod rename;
mod render;
pub mod selection_range;
pub mod semantic_tokens;
pub mod signature_help;
pub mod symbols;
mod tokens;

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};

use easyflow_db::salsa::{self, Setter};
pub use easyflow_db::{CatalogFile, Database, Db, SourceFile, StepId, TopologyFile};
pub use easyflow_diagnostics::allow::CodeLevels;
pub use easyflow_diagnostics::{Diagnostic, TextRange, TextSize};
pub use easyflow_syntax::{SourceText, line_index};
pub use salsa::{CancellationToken, Cancelled};

/// A replacement of `range` by `insert`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub insert: String,
}

/// `text` with non-overlapping `edits` (in any order) applied.
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut edits: Vec<&TextEdit> = edits.iter().collect();
    edits.sort_by_key(|edit| edit.range.start());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..usize::from(edit.range.start())]);
        out.push_str(&edit.insert);
        at = usize::from(edit.range.end());
    }
    out.push_str(&text[at..]);
    out
}

/// The result of a computation that a change to the host may cancel.
pub type Cancellable<T> = Result<T, Cancelled>;

/// The state of every file the analysis knows: the one database that
/// changes. Applying a change cancels the computations of outstanding
/// [`Analysis`] snapshots, and waits until they have let go of the database.
#[derive(Default)]
pub struct AnalysisHost {
    db: Database,
    /// Flows removed from the analysis, emptied, for the next flows added:
    /// salsa never frees an input, so reusing them keeps the number of flow
    /// inputs at the most the workspace ever held at once.
    free_flows: Vec<SourceFile>,
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost::default()
    }

    /// A snapshot of the current state, to compute features on (on any
    /// thread).
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
        }
    }

    /// A new flow file with its text.
    pub fn add_flow(&mut self, path: &Path, text: &str) -> SourceFile {
        self.add_shared_flow(path, text.into())
    }

    /// [`AnalysisHost::add_flow`] with a text the caller shares (an editor's
    /// open document): nothing is copied.
    pub fn add_shared_flow(&mut self, path: &Path, text: SourceText) -> SourceFile {
        match self.free_flows.pop() {
            Some(file) => {
                if file.path(&self.db) != path {
                    file.set_path(&mut self.db).to(path.to_path_buf());
                }
                self.set_flow(file, text, None);
                file
            }
            None => SourceFile::new(&self.db, path.to_path_buf(), text),
        }
    }

    /// Takes a flow out of the analysis (a file deleted, or closed and not
    /// on the disk): its text is emptied and checked once, so the trees and
    /// analyses of its old text are freed now, and the input is kept for
    /// the next flow added. `file` must not be used afterwards.
    pub fn remove_flow(&mut self, file: SourceFile) {
        self.set_flow(file, SourceText::default(), None);
        self.set_flow_topology(file, None);
        self.set_flow_catalog(file, None);
        self.set_flow_levels(file, CodeLevels::default());
        let _ = self.db.check(file);
        self.db.forget_states(file);
        self.free_flows.push(file);
    }

    /// The path a flow was added with.
    pub fn flow_path(&self, file: SourceFile) -> &PathBuf {
        file.path(&self.db)
    }

    /// Sets a flow's whole text (unchanged text costs nothing).
    pub fn set_flow_text(&mut self, file: SourceFile, text: &str) {
        if *file.text(&self.db) != *text {
            self.set_flow(file, text.into(), None);
        }
    }

    /// [`AnalysisHost::set_flow_text`] with a shared text.
    pub fn set_shared_flow_text(&mut self, file: SourceFile, text: SourceText) {
        if *file.text(&self.db) != text {
            self.set_flow(file, text, None);
        }
    }

    /// Sets a flow's text after an edit that replaced `deleted` (a range of
    /// the previous text) by `inserted`: the parse is updated by reparsing
    /// only the items around the edit (`easyflow_syntax::reparse`) when it
    /// can be.
    pub fn edit_flow(&mut self, file: SourceFile, text: &str, deleted: TextRange, inserted: &str) {
        self.edit_shared_flow(file, text.into(), deleted, inserted);
    }

    /// [`AnalysisHost::edit_flow`] with a shared text.
    pub fn edit_shared_flow(
        &mut self,
        file: SourceFile,
        text: SourceText,
        deleted: TextRange,
        inserted: &str,
    ) {
        let old = easyflow_db::parse(&self.db, file);
        let reparsed = easyflow_syntax::reparse(old, deleted, inserted, &text);
        self.set_flow(file, text, reparsed);
    }

    fn set_flow(
        &mut self,
        file: SourceFile,
        text: SourceText,
        reparsed: Option<easyflow_syntax::Parse>,
    ) {
        // `reparsed` must stay in step with `text`: cleared when the text is
        // set without one.
        if file.reparsed(&self.db).is_some() || reparsed.is_some() {
            file.set_reparsed(&mut self.db).to(reparsed);
        }
        file.set_text(&mut self.db).to(text);
    }

    /// The topology a flow's fit check uses (decided by discovery).
    pub fn set_flow_topology(&mut self, file: SourceFile, topology: Option<TopologyFile>) {
        if file.topology(&self.db) != topology {
            file.set_topology(&mut self.db).to(topology);
        }
    }

    /// The package catalog a flow is checked against (decided by discovery).
    pub fn set_flow_catalog(&mut self, file: SourceFile, catalog: Option<CatalogFile>) {
        if file.catalog(&self.db) != catalog {
            file.set_catalog(&mut self.db).to(catalog);
        }
    }

    /// What a flow's `easyflow.toml` allows and denies (its `[diagnostics]`,
    /// found by discovery).
    pub fn set_flow_levels(&mut self, file: SourceFile, levels: CodeLevels) {
        if *file.levels(&self.db) != levels {
            file.set_levels(&mut self.db).to(levels);
        }
    }

    /// A new package catalog with its contents (bytes: one that is not
    /// UTF-8 is its own diagnostic).
    pub fn add_catalog(&mut self, path: &Path, bytes: Vec<u8>) -> CatalogFile {
        CatalogFile::new(&self.db, path.to_path_buf(), bytes)
    }

    /// Sets a catalog's contents (unchanged contents cost nothing).
    pub fn set_catalog_bytes(&mut self, catalog: CatalogFile, bytes: Vec<u8>) {
        if *catalog.bytes(&self.db) != bytes {
            catalog.set_bytes(&mut self.db).to(bytes);
        }
    }

    /// A new topology file with its text.
    pub fn add_topology(&mut self, path: &Path, text: String) -> TopologyFile {
        TopologyFile::new(&self.db, path.to_path_buf(), text)
    }

    /// Sets a topology file's text (unchanged text costs nothing).
    pub fn set_topology_text(&mut self, topology: TopologyFile, text: String) {
        if *topology.text(&self.db) != text {
            topology.set_text(&mut self.db).to(text);
        }
    }
}

/// A snapshot of the analysis at one moment, for one computation (it is
/// moved to the thread that computes). A change applied to the host
/// afterwards cancels it: its methods then return `Err(Cancelled)`.
pub struct Analysis {
    db: Database,
}

impl Analysis {
    /// Cancels what this snapshot is computing (its methods return
    /// `Err(Cancelled)`), as when the client cancels the request.
    pub fn cancellation_token(&self) -> CancellationToken {
        self.db.cancellation_token()
    }

    /// Runs `f` on the database, catching salsa's cancellation (any other
    /// panic goes on unwinding, for the caller to report).
    fn with_db<'a, T>(&'a self, f: impl FnOnce(&'a Database) -> T) -> Cancellable<T> {
        // Unwind safety: a cancelled computation leaves nothing half-done
        // that anyone reads; its snapshot is dropped with it.
        Cancelled::catch(AssertUnwindSafe(|| f(&self.db)))
    }

    /// A flow's text, as the analysis has it.
    pub fn file_text(&self, file: SourceFile) -> Cancellable<&SourceText> {
        self.with_db(|db| file.text(db))
    }

    /// A flow's parse as the analysis keeps it: after an edit, the
    /// incremental reparse when it applied.
    pub fn parse(&self, file: SourceFile) -> Cancellable<easyflow_syntax::Parse> {
        self.with_db(|db| easyflow_db::parse(db, file).clone())
    }

    /// A flow's syntax tree as `easyflow parse` prints it
    /// (`easyflow_syntax::debug_tree`).
    pub fn syntax_tree(&self, file: SourceFile) -> Cancellable<String> {
        self.with_db(|db| easyflow_syntax::debug_tree(&easyflow_db::parse(db, file).syntax()))
    }

    /// The path a flow was added with.
    pub fn file_path(&self, file: SourceFile) -> Cancellable<&Path> {
        self.with_db(|db| file.path(db).as_path())
    }

    /// Every diagnostic of a flow, sorted by position (see [`Database::check`]).
    pub fn diagnostics(&self, file: SourceFile) -> Cancellable<&[Diagnostic]> {
        self.with_db(|db| db.check(file))
    }

    /// Computes what the first request about a name reads (what the names
    /// resolve to, the steps' levels, the ranges of the steps' parts), so
    /// that the request is answered from memos: cold, at 100k steps, that
    /// is some 50 ms, against under 1 ms once computed. The server runs it
    /// off the request path after an opened flow's first diagnostics
    /// (rust-analyzer's cache priming, for one flow); after an edit these
    /// are recomputed incrementally.
    pub fn prime_requests(&self, file: SourceFile) -> Cancellable<()> {
        self.with_db(|db| {
            easyflow_db::name_resolution(db, file);
            if easyflow_db::levels::forward_levels(db, file).is_none() {
                easyflow_db::dependency_graph(db, file);
            }
            db.anchor_steps_on_every_core(file);
        })
    }

    /// What the first edit of `file` needs and its first diagnostics left
    /// out (`easyflow_db::links::EditPreparation`, some 40 ms at 100k
    /// steps): to run after [`Analysis::prime_requests`], once this
    /// snapshot is dropped, since it holds none and a change need not wait
    /// for it.
    pub fn edit_preparation(&self, file: SourceFile) -> easyflow_db::links::EditPreparation {
        self.db.edit_preparation(file)
    }

    /// A topology file's own diagnostics (E06xx).
    pub fn topology_diagnostics(&self, topology: TopologyFile) -> Cancellable<&[Diagnostic]> {
        self.with_db(|db| {
            easyflow_db::parse_topology(db, topology)
                .diagnostics
                .as_slice()
        })
    }

    /// A package catalog's own diagnostics (E0810).
    pub fn catalog_diagnostics(&self, catalog: CatalogFile) -> Cancellable<&[Diagnostic]> {
        self.with_db(|db| {
            easyflow_db::parse_catalog(db, catalog)
                .diagnostics
                .as_slice()
        })
    }

    /// The signature of the package whose step's parentheses hold `offset`.
    pub fn signature_help(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Option<signature_help::SignatureHelp>> {
        self.with_db(|db| signature_help::signature_help(db, file, offset))
    }

    pub fn hover(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Option<hover::HoverResult>> {
        self.with_db(|db| hover::hover(db, file, offset))
    }

    /// The completions at `offset`, cut to the best matches of what is
    /// typed ([`completion::completion_list`]).
    pub fn completions(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<completion::CompletionList> {
        self.with_db(|db| completion::completion_list(db, file, offset))
    }

    /// The documentation a completion item left out of the list
    /// ([`completion::resolve_documentation`]).
    pub fn completion_documentation(
        &self,
        file: SourceFile,
        of: &completion::DocumentationOf,
    ) -> Cancellable<Option<String>> {
        self.with_db(|db| completion::resolve_documentation(db, file, of))
    }

    pub fn goto_definition(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Option<navigation::NavigationTarget>> {
        self.with_db(|db| navigation::goto_definition(db, file, offset))
    }

    /// The declarations in the flow's catalog or topology of the name at
    /// `offset` ([`cross_file::definition`]).
    pub fn companion_definition(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Vec<cross_file::CompanionTarget>> {
        self.with_db(|db| cross_file::definition(db, file, offset))
    }

    /// The path and text of a catalog or topology (a catalog that is not
    /// UTF-8 read lossily: it declares nothing to point at anyway).
    pub fn companion_source(
        &self,
        companion: cross_file::Companion,
    ) -> Cancellable<(PathBuf, String)> {
        self.with_db(|db| match companion {
            cross_file::Companion::Catalog(catalog) => (
                catalog.path(db).clone(),
                String::from_utf8_lossy(catalog.bytes(db)).into_owned(),
            ),
            cross_file::Companion::Topology(topology) => {
                (topology.path(db).clone(), topology.text(db).clone())
            }
        })
    }

    /// The path of the package catalog a flow is checked against, if any.
    pub fn flow_catalog_path(&self, file: SourceFile) -> Cancellable<Option<PathBuf>> {
        self.with_db(|db| file.catalog(db).map(|catalog| catalog.path(db).clone()))
    }

    /// The package names after `runs` of the steps of `file` that run
    /// package `name`.
    pub fn package_uses(&self, file: SourceFile, name: &str) -> Cancellable<Vec<TextRange>> {
        self.with_db(|db| cross_file::package_uses(db, file, name))
    }

    pub fn references(
        &self,
        file: SourceFile,
        offset: TextSize,
        include_declaration: bool,
    ) -> Cancellable<Vec<defs::Usage>> {
        self.with_db(|db| navigation::references(db, file, offset, include_declaration))
    }

    pub fn highlights(&self, file: SourceFile, offset: TextSize) -> Cancellable<Vec<defs::Usage>> {
        self.with_db(|db| navigation::highlights(db, file, offset))
    }

    /// The name under the cursor and its text, or why it cannot be renamed.
    pub fn prepare_rename(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Result<(TextRange, String), String>> {
        self.with_db(|db| rename::prepare_rename(db, file, offset))
    }

    /// The edits of a rename, or why it cannot be done.
    pub fn rename(
        &self,
        file: SourceFile,
        offset: TextSize,
        new_name: &str,
    ) -> Cancellable<Result<Vec<TextEdit>, String>> {
        self.with_db(|db| rename::rename(db, file, offset, new_name))
    }

    pub fn document_symbols(&self, file: SourceFile) -> Cancellable<Vec<symbols::DocumentSymbol>> {
        self.with_db(|db| symbols::document_symbols(db, file))
    }

    /// The named steps of a flow, for workspace searches
    /// ([`symbols::search_symbols`]).
    pub fn flow_symbols(&self, file: SourceFile) -> Cancellable<symbols::FlowSymbols> {
        self.with_db(|db| symbols::flow_symbols(db, file))
    }

    /// The steps of `files` that match `query`, best first, at most `limit`.
    pub fn workspace_symbols(
        &self,
        files: &[SourceFile],
        query: &str,
        limit: usize,
    ) -> Cancellable<Vec<symbols::WorkspaceSymbol>> {
        self.with_db(|db| symbols::workspace_symbols(db, files, query, limit))
    }

    /// The tokens of the file, or of those that intersect `range`.
    pub fn semantic_tokens(
        &self,
        file: SourceFile,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<semantic_tokens::SemanticToken>> {
        self.with_db(|db| semantic_tokens::semantic_tokens(db, file, range))
    }

    /// The edits that format `file` (`None` with syntax errors).
    pub fn formatting(
        &self,
        file: SourceFile,
        options: &easyflow_fmt::Options,
    ) -> Cancellable<Option<Vec<TextEdit>>> {
        self.with_db(|db| formatting::formatting(db, file, options))
    }

    /// The edits that format the top-level items `range` touches.
    pub fn range_formatting(
        &self,
        file: SourceFile,
        range: TextRange,
        options: &easyflow_fmt::Options,
    ) -> Cancellable<Option<Vec<TextEdit>>> {
        self.with_db(|db| formatting::range_formatting(db, file, range, options))
    }

    pub fn folding_ranges(&self, file: SourceFile) -> Cancellable<Vec<folding::Fold>> {
        self.with_db(|db| folding::folding_ranges(db, file))
    }

    /// For each offset, the ranges around it from the innermost out.
    pub fn selection_ranges(
        &self,
        file: SourceFile,
        offsets: &[TextSize],
    ) -> Cancellable<Vec<Vec<TextRange>>> {
        self.with_db(|db| selection_range::selection_ranges(db, file, offsets))
    }

    pub fn code_actions(
        &self,
        file: SourceFile,
        range: TextRange,
    ) -> Cancellable<Vec<code_actions::CodeAction>> {
        self.with_db(|db| code_actions::code_actions(db, file, range))
    }

    /// Every preferred quick fix of the file in one action
    /// ([`code_actions::fix_all`]); `None` when there is none.
    pub fn fix_all(&self, file: SourceFile) -> Cancellable<Option<code_actions::CodeAction>> {
        self.with_db(|db| code_actions::fix_all_action(db, file))
    }

    pub fn inlay_hints(
        &self,
        file: SourceFile,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<inlay_hints::InlayHint>> {
        self.with_db(|db| inlay_hints::inlay_hints(db, file, range))
    }

    pub fn code_lenses(&self, file: SourceFile) -> Cancellable<Vec<code_lens::CodeLens>> {
        self.with_db(|db| code_lens::code_lenses(db, file))
    }

    /// The dependents of the step at `offset` ([`code_lens::dependents_at`]).
    pub fn dependents(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Option<Vec<TextRange>>> {
        self.with_db(|db| code_lens::dependents_at(db, file, offset))
    }

    pub fn call_hierarchy_item(
        &self,
        file: SourceFile,
        offset: TextSize,
    ) -> Cancellable<Option<call_hierarchy::CallItem>> {
        self.with_db(|db| call_hierarchy::prepare(db, file, offset))
    }

    /// The steps `step` depends on, with where each dependency is written.
    pub fn incoming_calls(
        &self,
        file: SourceFile,
        step: StepId,
    ) -> Cancellable<Vec<(call_hierarchy::CallItem, Vec<TextRange>)>> {
        self.with_db(|db| call_hierarchy::incoming(db, file, step))
    }

    /// The steps that depend on `step`, with where each dependency is written.
    pub fn outgoing_calls(
        &self,
        file: SourceFile,
        step: StepId,
    ) -> Cancellable<Vec<(call_hierarchy::CallItem, Vec<TextRange>)>> {
        self.with_db(|db| call_hierarchy::outgoing(db, file, step))
    }

    /// The dependency graph, with the range of each node's name.
    pub fn graph(&self, file: SourceFile) -> Cancellable<graph::Graph> {
        self.with_db(|db| graph::graph(db, file))
    }

    /// The dependency graph's picture, as SVG for a page that styles it.
    pub fn graph_picture(&self, file: SourceFile) -> Cancellable<String> {
        self.with_db(|db| graph::picture(db, file).clone())
    }

    /// The dependency graph's picture for an editor's view of it.
    pub fn graph_picture_for_view(&self, file: SourceFile) -> Cancellable<graph::PictureForView> {
        self.with_db(|db| graph::picture_for_view(db, file))
    }

    /// The flow in an export format, or why it cannot be exported.
    pub fn export(
        &self,
        file: SourceFile,
        format: &export::Format,
    ) -> Cancellable<Result<export::Exported, export::Refused>> {
        self.with_db(|db| export::export(db, file, format))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    #[test]
    fn analysis_is_send() {
        fn is_send<T: Send>() {}
        is_send::<Analysis>();
    }

    /// Priming computes everything the first hover, completion and
    /// definition at a name read beyond the diagnostics: they compute no
    /// query. The second flow names a later step, so its levels come from
    /// the dependency graph.
    #[test]
    fn after_priming_the_first_requests_at_a_name_compute_no_query() {
        for text in [
            "step A runs P (x = 1);\nstep B runs Q after A (y = A.outs[\"o\"]);\n",
            "step B runs Q (y = A.outs[\"o\"]);\nstep A runs P (x = 1);\n",
        ] {
            let (db, log) = Database::with_execution_log();
            let mut host = AnalysisHost {
                db,
                free_flows: Vec::new(),
            };
            let file = host.add_flow(Path::new("a.flow"), text);
            let analysis = host.analysis();
            analysis.diagnostics(file).unwrap();
            analysis.prime_requests(file).unwrap();
            log.take();
            let at = TextSize::from(text.find("A.outs").unwrap() as u32);
            assert!(analysis.hover(file, at).unwrap().is_some());
            assert!(analysis.goto_definition(file, at).unwrap().is_some());
            assert!(!analysis.completions(file, at).unwrap().items.is_empty());
            let executed = log.take();
            assert_eq!(executed, Default::default(), "{text}: {executed:?}");
        }
    }

    #[test]
    fn a_removed_flow_is_reused_for_the_next_one_added() {
        let mut host = AnalysisHost::new();
        let gone = host.add_flow(
            Path::new("gone.flow"),
            "step A runs P ();\nstep A runs Q ();\n",
        );
        assert_eq!(host.analysis().diagnostics(gone).unwrap().len(), 1);
        host.remove_flow(gone);
        assert_eq!(
            easyflow_db::links::chunks_linked(&host.db, gone),
            None,
            "nothing is kept beside the database for it"
        );
        let next = host.add_flow(Path::new("next.flow"), "step B runs P (x = C);\n");
        assert_eq!(next, gone, "the input is reused");
        let analysis = host.analysis();
        assert_eq!(analysis.file_path(next).unwrap(), Path::new("next.flow"));
        let codes: Vec<&str> = analysis
            .diagnostics(next)
            .unwrap()
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(codes, ["E0201"]);
        let other = host.add_flow(Path::new("other.flow"), "");
        assert_ne!(other, next);
    }

    #[test]
    fn a_snapshot_sees_the_state_it_was_taken_from() {
        let mut host = AnalysisHost::new();
        let file = host.add_flow(Path::new("a.flow"), "step A runs P ();\n");
        let analysis = host.analysis();
        assert!(analysis.diagnostics(file).unwrap().is_empty());
        drop(analysis);
        host.set_flow_text(file, "step A runs P ();\nstep A runs Q ();\n");
        let codes: Vec<&str> = host
            .analysis()
            .diagnostics(file)
            .unwrap()
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(codes, ["E0203"]);
    }

    #[test]
    fn an_edit_inside_a_step_equals_setting_the_text() {
        let mut host = AnalysisHost::new();
        let text = "step A runs P (x = 1);\nstep B runs Q (y = A);\n";
        let edited = host.add_flow(Path::new("a.flow"), text);
        let fresh = host.add_flow(Path::new("b.flow"), text);
        let new_text = text.replace("x = 1", "x = 12");
        let at = TextSize::from(20);
        host.edit_flow(edited, new_text.as_str(), TextRange::empty(at), "2");
        host.set_flow_text(fresh, new_text.as_str());
        let analysis = host.analysis();
        assert_eq!(*analysis.file_text(edited).unwrap(), new_text);
        assert_eq!(
            analysis.document_symbols(edited).unwrap(),
            analysis.document_symbols(fresh).unwrap()
        );
    }

    #[test]
    fn a_cancelled_snapshot_returns_cancelled() {
        let mut host = AnalysisHost::new();
        let file = host.add_flow(Path::new("a.flow"), "step A runs P ();\n");
        let analysis = host.analysis();
        analysis.cancellation_token().cancel();
        assert!(matches!(analysis.diagnostics(file), Err(Cancelled::Local)));
        // Other snapshots are not affected.
        assert!(host.analysis().diagnostics(file).is_ok());
    }

    /// A change applied while a snapshot computes cancels it; the change
    /// waits for the snapshot to let go.
    #[test]
    fn a_change_cancels_a_running_computation() {
        let mut host = AnalysisHost::new();
        let text = chain_of_steps(3000);
        let file = host.add_flow(Path::new("a.flow"), text.as_str());
        let analysis = host.analysis();
        let (started, running) = mpsc::channel();
        let worker = std::thread::spawn(move || {
            started.send(()).unwrap();
            // Keep asking until the change cancels it.
            loop {
                if analysis.diagnostics(file).is_err() {
                    return true;
                }
                if analysis.semantic_tokens(file, None).is_err() {
                    return true;
                }
            }
        });
        running.recv().unwrap();
        host.set_flow_text(file, "step B runs Q ();\n");
        assert!(worker.join().unwrap());
        assert_eq!(
            host.analysis().file_text(file).unwrap(),
            "step B runs Q ();\n"
        );
    }

    fn chain_of_steps(steps: usize) -> String {
        (0..steps)
            .map(|i| format!("step S{i} runs P (x = S{});\n", i.saturating_sub(1)))
            .collect()
    }
}
