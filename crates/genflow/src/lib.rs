//! A generator of large, valid, realistic flows, shaped like the reference
//! workload `shared/tools/genflow.py N`: data dependencies on one to three of
//! the previous 200 steps, some `after` lists, sweeps, nested lists,
//! attributes, comments, Cyrillic text in strings, and `post` code blocks.
//! Deterministic for a given seed; the output has no diagnostics. Also the
//! random edit that property tests apply to such flows ([`edit`]).

use std::fmt::Write;

const PACKAGES: [&str; 5] = [
    "ORCA.DFT",
    "Solver.Main",
    "Tools.Prepare",
    "ScienceVis.ThreeDGraph.Mesh",
    "Reducer.Sum",
];
const CAPABILITIES: [&str; 5] = [
    "compute+CPU",
    "compute+GPU",
    "reduce",
    "IO+load",
    "IO+store",
];

/// The topology that satisfies the `requires` of [`generate_with_topology`].
pub const TOPOLOGY: &str = "compute+CPU:24,1073741824 compute+GPU:2,1073741824 reduce:4,2147483648 IO+load:2,16777216 IO+store:2,16777216\n";

/// A flow of `steps` steps.
pub fn generate(steps: usize, seed: u64) -> String {
    generate_flow(steps, seed, false, true)
}

/// A flow of `steps` steps without code blocks, which [`runnable_catalog`]
/// makes runnable (`run.md`: CWL cannot run code blocks).
pub fn generate_runnable(steps: usize, seed: u64) -> String {
    generate_flow(steps, seed, false, false)
}

/// A flow of `steps` steps whose every third step `requires` a capability set
/// of [`TOPOLOGY`].
pub fn generate_with_topology(steps: usize, seed: u64) -> String {
    generate_flow(steps, seed, true, true)
}

fn generate_flow(steps: usize, seed: u64, with_requires: bool, code_blocks: bool) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = String::with_capacity(steps * 160);
    let files = (steps / 50).max(1);
    let _ = writeln!(out, "// Generated workflow with {steps} steps.");
    out.push_str("[flow:name = \"Generated benchmark workflow\"]\n");
    out.push_str("[flow:author = \"genflow\"]\n");
    out.push_str("[flow:priority = @normal]\n");
    for chunk_start in (0..files).step_by(8) {
        let names: Vec<String> = (chunk_start..files.min(chunk_start + 8))
            .map(|i| format!("input{i}"))
            .collect();
        let _ = writeln!(out, "require {};", names.join(", "));
    }
    out.push('\n');
    for s in 0..steps {
        if s % 17 == 0 {
            let _ = writeln!(
                out,
                "// Stage {}: preparation and analysis of chunk {s}.",
                s / 17
            );
        }
        if s % 5 == 0 {
            out.push_str("[priority = @high]\n");
        }
        if with_requires && s % 3 == 0 {
            let _ = writeln!(
                out,
                "[requires = \"{}\"]",
                CAPABILITIES[rng.usize(..CAPABILITIES.len())]
            );
        }
        let mut params = Vec::new();
        if s < files {
            params.push(format!("source = input{s}"));
        }
        let mut deps: Vec<usize> = Vec::new();
        if s > 0 {
            for _ in 0..rng.usize(1..=3) {
                deps.push(rng.usize(s.saturating_sub(200)..s));
            }
            deps.sort_unstable();
            deps.dedup();
        }
        for (j, d) in deps.iter().enumerate() {
            params.push(format!("in{j} = S{d}.outs[\"part{}.dat\"]", d % 7));
        }
        params.push(format!("threshold = {:.4}", rng.f64()));
        params.push(format!("label = \"chunk {s} — этап\""));
        if s % 11 == 0 {
            params.push("iterations = sweep [100, 200, 300]".to_string());
        }
        if s % 13 == 0 {
            params.push("grid = [1, 2, 3, [4, 5]]".to_string());
        }
        let mut after = String::new();
        if s > 2 && s % 7 == 0 {
            let mut candidates = vec![rng.usize(..s), rng.usize(..s)];
            candidates.sort_unstable();
            candidates.dedup();
            candidates.retain(|c| !deps.contains(c));
            if !candidates.is_empty() {
                let names: Vec<String> = candidates.iter().map(|c| format!("S{c}")).collect();
                after = format!(" after {}", names.join(", "));
            }
        }
        let package = PACKAGES[rng.usize(..PACKAGES.len())];
        let _ = writeln!(out, "step S{s} runs {package}{after}\n(");
        out.push_str(
            &params
                .iter()
                .map(|p| format!("  {p}"))
                .collect::<Vec<_>>()
                .join(",\n"),
        );
        out.push('\n');
        if code_blocks && s % 23 == 0 {
            let _ = writeln!(
                out,
                ")\npost code ruby\n  results = S{s}.Result.outs\n  results.each {{ |r| puts r }}\ncode end"
            );
        } else {
            out.push_str(");\n");
        }
        out.push('\n');
    }
    out
}

/// A package catalog (`easyflow-packages.toml`) of `packages` packages (at
/// least the five the generated flows run), under which every generated
/// flow is clean: each step's parameters declared with their types and
/// ranges, the outputs the flows read declared.
pub fn catalog(packages: usize) -> String {
    let mut out = String::with_capacity(packages * 400);
    let param = |out: &mut String, name: &str, ty: &str, extra: &str| {
        let _ = writeln!(
            out,
            "  [[package.param]]\n  name = \"{name}\"\n  type = \"{ty}\"\n{extra}"
        );
    };
    for i in 0..packages.max(PACKAGES.len()) {
        match PACKAGES.get(i) {
            Some(name) => {
                let _ = writeln!(
                    out,
                    "[[package]]\nname = \"{name}\"\ndescription = \"Package {name} of the generated flows\"\n"
                );
                param(&mut out, "source", "File", "");
                for j in 0..3 {
                    param(&mut out, &format!("in{j}"), "File", "");
                }
                param(
                    &mut out,
                    "threshold",
                    "Double",
                    "  min = 0\n  max = 1\n  description = \"Cut-off\"\n",
                );
                param(&mut out, "label", "String", "  required = true\n");
                param(&mut out, "iterations", "Int", "  min = 1\n  max = 1000\n");
                param(&mut out, "grid", "List", "");
                for part in 0..7 {
                    let _ = writeln!(out, "  [[package.output]]\n  name = \"part{part}.dat\"\n");
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "[[package]]\nname = \"Filler.Package{i}\"\nrequires = \"compute+CPU\"\n"
                );
                param(&mut out, "input", "File", "  required = true\n");
                param(
                    &mut out,
                    "mode",
                    "Enum",
                    "  values = [\"fast\", \"exact\"]\n  default = \"fast\"\n",
                );
            }
        }
    }
    out
}

/// [`catalog`] with each package of the generated flows runnable
/// (`[package.run]`, `run.md` §1): it writes its inputs' contents and its
/// arguments into every output the flows read.
pub fn runnable_catalog() -> String {
    let command = r#"  [package.run]
  command = ["sh", "-c", "for part in 0 1 2 3 4 5 6; do echo \"$@\" > part$part.dat; done", "generated"]
"#;
    let mut out = String::new();
    for package in catalog(0).split_inclusive("\n\n") {
        out.push_str(package);
        if package.starts_with("[[package]]") {
            out.push_str(command);
            out.push('\n');
        }
    }
    out
}

/// Replaces about `removed` bytes at about `at` (wrapped into the text and
/// moved out to char boundaries) with `inserted`, as a random edit of a
/// property test; returns the replaced range.
pub fn edit(
    text: &mut String,
    at: usize,
    removed: usize,
    inserted: &str,
) -> std::ops::Range<usize> {
    let mut start = at % (text.len() + 1);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + removed).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    text.replace_range(start..end, inserted);
    start..end
}

#[cfg(test)]
mod tests {
    #[test]
    fn deterministic_and_sized() {
        let a = super::generate(100, 7);
        assert_eq!(a, super::generate(100, 7));
        assert_eq!(a.matches("\nstep S").count(), 100);
        assert!(super::generate_with_topology(9, 1).contains("[requires = "));
    }
}
