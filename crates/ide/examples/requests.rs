//! A profiling driver for the requests the LSP benchmark times at a step
//! reference (hover, completion, definition), without the server: opens a
//! generated flow of `STEPS` steps (default 100000) in an `AnalysisHost`,
//! checks it, then `COUNT` times applies an edit of `EDIT` (`none`,
//! `string`: a character in a string, `reference`: a character of a step
//! reference, each typed then deleted), checks the file as the server does
//! per keystroke, and asks `METHOD` (`hover`, `completion`, `definition`)
//! at the reference (asked once before, unmeasured). Only `answer_request` matters to a profiler, e.g.
//! `valgrind --tool=callgrind --toggle-collect='*answer_request*' requests 100000 reference hover 6`.

use std::path::Path;
use std::time::{Duration, Instant};

use easyflow_ide::{Analysis, AnalysisHost, SourceFile, SourceText, TextRange, TextSize};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One request at `offset`; what it found, so that nothing is optimised
/// away.
#[inline(never)]
fn answer_request(analysis: &Analysis, file: SourceFile, method: &str, offset: TextSize) -> usize {
    ask(analysis, file, method, offset)
}

/// [`answer_request`] outside the profile.
#[inline(never)]
fn warm(analysis: &Analysis, file: SourceFile, method: &str, offset: TextSize) {
    ask(analysis, file, method, offset);
}

#[inline(never)]
fn ask(analysis: &Analysis, file: SourceFile, method: &str, offset: TextSize) -> usize {
    match method {
        "hover" => analysis
            .hover(file, offset)
            .ok()
            .flatten()
            .map_or(0, |h| h.markdown.len()),
        "completion" => analysis
            .completions(file, offset)
            .map_or(0, |list| list.items.len()),
        "definition" => analysis
            .goto_definition(file, offset)
            .ok()
            .flatten()
            .map_or(0, |_| 1),
        other => panic!("unknown method {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let edit = args.get(2).map_or("none", String::as_str);
    let method = args.get(3).map_or("hover", String::as_str);
    let count: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(6);
    let text = easyflow_genflow::generate(steps, 7);
    let mut host = AnalysisHost::new();
    let mut source = SourceText::from(text.as_str());
    source.edit(TextRange::empty(TextSize::from(0)), "");
    let file = host.add_shared_flow(Path::new("requests.flow"), source.clone());
    let _ = host.analysis().diagnostics(file);
    let middle = steps / 2;
    let target = format!("= S{}.outs", middle - 10);
    let reference = text.find(&target).unwrap();
    let at = match edit {
        "string" => Some(text.find(&format!("\"chunk {middle} ")).unwrap() + 1),
        "reference" => Some(reference + target.len() - ".outs".len()),
        _ => None,
    };
    let inserted = if edit == "string" { "x" } else { "1" };
    // The request's position, as the benchmark's: before the edited place.
    let offset = TextSize::from((reference + 3) as u32);
    // Warm: the benchmark asks after many other requests, so what no edit
    // changes is computed already.
    let started = Instant::now();
    warm(&host.analysis(), file, method, offset);
    eprintln!("first {method} after the check: {:?}", started.elapsed());
    let mut times: Vec<Duration> = Vec::new();
    let mut found = 0;
    for i in 0..count {
        if let Some(at) = at {
            let at = TextSize::from(at as u32);
            let (range, insert) = if i % 2 == 0 {
                (TextRange::empty(at), inserted)
            } else {
                (TextRange::at(at, TextSize::from(1)), "")
            };
            source.edit(range, insert);
            host.edit_shared_flow(file, source.clone(), range, insert);
            let _ = host.analysis().diagnostics(file);
        }
        let analysis = host.analysis();
        let started = Instant::now();
        found += answer_request(&analysis, file, method, offset);
        times.push(started.elapsed());
    }
    times.sort();
    eprintln!(
        "{method} after {edit} ({count}x, {found} found): p50 {:?}, max {:?}",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
