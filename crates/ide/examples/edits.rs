//! A profiling driver for the analysis side of an edit, without the server:
//! opens a generated flow of `STEPS` steps (default 100000) in an
//! `AnalysisHost`, checks it, then applies `COUNT` edits of one `KIND`
//! (`string`, `reference`, `newstep`, `delete`: delete a step then
//! undo, `paste`: paste 50 steps then undo, or `allow`: type an allow
//! comment above a step, `// easyflow: allow(W0405)`), each followed by the file's
//! diagnostics, as the server does per keystroke. Only `analyse_edit`
//! matters to a profiler, e.g.
//! `valgrind --tool=callgrind --toggle-collect='*analyse_edit*' edits 100000 string 6`.

use std::path::Path;

use easyflow_ide::{AnalysisHost, SourceFile, SourceText, TextRange, TextSize};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Applies one edit to `text` (kept to find where to edit) and measures it
/// on `source`, as the server keeps the document.
fn edit_and_check(
    host: &mut AnalysisHost,
    file: SourceFile,
    text: &mut String,
    source: &mut SourceText,
    at: usize,
    deleted: usize,
    inserted: &str,
) -> usize {
    text.replace_range(at..at + deleted, inserted);
    let range = TextRange::at(TextSize::from(at as u32), TextSize::from(deleted as u32));
    analyse_edit(host, file, source, range, inserted)
}

/// What a keystroke costs the analysis: the text's edit, the reparse, and
/// the diagnostics after it.
#[inline(never)]
fn analyse_edit(
    host: &mut AnalysisHost,
    file: SourceFile,
    source: &mut SourceText,
    range: TextRange,
    inserted: &str,
) -> usize {
    let started = std::time::Instant::now();
    source.edit(range, inserted);
    host.edit_shared_flow(file, source.clone(), range, inserted);
    let edited = started.elapsed();
    let count = host.analysis().diagnostics(file).map_or(0, <[_]>::len);
    if std::env::var_os("EDITS_VERBOSE").is_some() {
        eprintln!(
            "edit {edited:?}, then diagnostics {:?}",
            started.elapsed() - edited
        );
    }
    count
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let kind = args.get(2).map_or("string", String::as_str);
    let count: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(6);
    let mut text = easyflow_genflow::generate(steps, 7);
    let mut host = AnalysisHost::new();
    let mut source = SourceText::from(text.as_str());
    // The server's document becomes a rope at its first edit (one copy of
    // the text); made here, so that every edit measured is like the rest.
    source.edit(TextRange::empty(TextSize::from(0)), "");
    let file = host.add_shared_flow(Path::new("edits.flow"), source.clone());
    let started = std::time::Instant::now();
    let _ = host.analysis().diagnostics(file);
    eprintln!("first check: {:?}", started.elapsed());
    let middle = steps / 2;
    let started = std::time::Instant::now();
    match kind {
        "string" => {
            let at = text.find(&format!("\"chunk {middle} ")).unwrap() + 1;
            for i in 0..count {
                if i % 2 == 0 {
                    edit_and_check(&mut host, file, &mut text, &mut source, at, 0, "x");
                } else {
                    edit_and_check(&mut host, file, &mut text, &mut source, at, 1, "");
                }
            }
        }
        "reference" => {
            let target = format!("= S{}.outs", middle - 10);
            let at = text.find(&target).unwrap() + target.len() - ".outs".len();
            for i in 0..count {
                if i % 2 == 0 {
                    edit_and_check(&mut host, file, &mut text, &mut source, at, 0, "1");
                } else {
                    edit_and_check(&mut host, file, &mut text, &mut source, at, 1, "");
                }
            }
        }
        "delete" | "paste" => {
            let step = text.find(&format!("\nstep S{middle} ")).unwrap();
            let blank = text[..step].rfind("\n\n").unwrap() + 1;
            let next = text[step + 1..].find("\n\n").unwrap() + step + 2;
            let block = text[blank..next].to_string();
            let pasted: String = (0..50)
                .map(|i| block.replacen(&format!("step S{middle} "), &format!("step P{i} "), 1))
                .collect();
            for i in 0..count {
                match (kind, i % 2) {
                    ("delete", 0) => edit_and_check(
                        &mut host,
                        file,
                        &mut text,
                        &mut source,
                        blank,
                        block.len(),
                        "",
                    ),
                    ("delete", _) => {
                        edit_and_check(&mut host, file, &mut text, &mut source, blank, 0, &block)
                    }
                    (_, 0) => {
                        edit_and_check(&mut host, file, &mut text, &mut source, blank, 0, &pasted)
                    }
                    _ => edit_and_check(
                        &mut host,
                        file,
                        &mut text,
                        &mut source,
                        blank,
                        pasted.len(),
                        "",
                    ),
                };
            }
        }
        _ => {
            let step = text.find(&format!("\nstep S{middle} ")).unwrap();
            let blank = text[..step].rfind("\n\n").unwrap() + 1;
            let typed = match kind {
                "allow" => "// easyflow: allow(W0405)\n".to_string(),
                _ => format!(
                    "step New runs Tools.Prepare (x = S{}.outs);\n\n",
                    middle - 1
                ),
            };
            for (i, c) in typed.char_indices().take(count) {
                edit_and_check(
                    &mut host,
                    file,
                    &mut text,
                    &mut source,
                    blank + i,
                    0,
                    &c.to_string(),
                );
            }
        }
    }
    eprintln!(
        "{count} edits ({kind}): {:?} each",
        started.elapsed() / count.max(1) as u32
    );
}
