//! The picture of generated flows (`cargo bench -p easyflow-picture`): the
//! layout alone, and the layout with its SVG, from the database's graph
//! view (computed untimed).

use divan::Bencher;
use easyflow_db::{Database, GraphView, SourceFile, graph_view};
use easyflow_picture::{Document, picture, to_svg};

fn main() {
    divan::main();
}

fn view_of(steps: usize) -> GraphView {
    let db = Database::default();
    let file = SourceFile::new(
        &db,
        "bench.flow".into(),
        easyflow_genflow::generate(steps, 7).into(),
    );
    graph_view(&db, file).clone()
}

#[divan::bench(args = [1_000, 10_000], sample_count = 10, sample_size = 1)]
fn layout(bencher: Bencher, steps: usize) {
    let view = view_of(steps);
    bencher.bench_local(|| picture(&view));
}

#[divan::bench(args = [1_000, 10_000], sample_count = 10, sample_size = 1)]
fn layout_and_svg(bencher: Bencher, steps: usize) {
    let view = view_of(steps);
    bencher.bench_local(|| to_svg(&picture(&view), Document::Standalone));
}
