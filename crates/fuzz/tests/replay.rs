//! Every fuzz target's check on stable, without libFuzzer: the checked-in
//! regressions (`fuzz/regressions/TARGET/`, each a minimised finding of a
//! campaign), the test cases that seed it (also the campaigns' seeds), and a
//! short smoke run of random mutations of those seeds (`EASYFLOW_FUZZ_SMOKE`
//! mutations per target, 200 by default, half of them the target's own
//! structure-aware mutations when it has some; the mutations are the same
//! on every run unless `EASYFLOW_FUZZ_SEED` is set).
//! A seed folder that gives no input, a target's regressions folder that
//! holds none, a folder of findings named after no target, or no
//! `fuzz/regressions` at all fails: a replay of nothing would pass.

use std::path::{Path, PathBuf};

use easyflow_fuzz::{TARGETS, Target};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files under `dir`, recursively, sorted (none when it is missing).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else if path.is_file() {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The names of the folders in `dir`.
fn folders_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect()
}

/// The seeds of `target`: its test cases' inputs, small enough to mutate.
/// Panics when a seed folder gives none (missing, moved or emptied: the
/// target would be smoke-tested on nothing).
fn seeds(target: &Target) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for folder in target.seeds {
        let found: Vec<Vec<u8>> = files_under(&repo_root().join("tests/data").join(folder))
            .into_iter()
            .filter(|path| {
                path.extension()
                    .is_some_and(|e| e == "flow" || e == "topology" || e == "toml")
            })
            .filter_map(|path| std::fs::read(path).ok())
            .filter(|bytes| bytes.len() <= 16 * 1024)
            .collect();
        assert!(
            !found.is_empty(),
            "seed folder tests/data/{folder} of target `{}` gives no seed",
            target.name
        );
        seeds.extend(found);
    }
    seeds
}

/// The checked-in findings of `name`. Panics when `fuzz/regressions` is
/// missing, or when the target's folder exists but holds no input: a
/// replay of nothing would pass.
fn regressions(name: &str) -> Vec<PathBuf> {
    let root = repo_root().join("fuzz/regressions");
    assert!(root.is_dir(), "{} is missing", root.display());
    let folder = root.join(name);
    let found = files_under(&folder);
    assert!(
        !folder.exists() || !found.is_empty(),
        "{} holds no input",
        folder.display()
    );
    found
}

fn run(target: &Target, input: &[u8], origin: &dyn std::fmt::Display) {
    let outcome = std::panic::catch_unwind(|| (target.check)(input));
    if outcome.is_err() {
        panic!(
            "target `{}` failed on {origin}: {:?}",
            target.name,
            String::from_utf8_lossy(input)
        );
    }
}

/// Pieces of the languages that random bytes seldom spell.
const TOKENS: &[&str] = &[
    "step ",
    "~step ",
    " runs ",
    " after ",
    " on ",
    "require ",
    " from ",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "=",
    "<-",
    ":",
    ".",
    "\"",
    "\\",
    "\n",
    "\r\n",
    "code\n",
    "\ncode end\n",
    "pre ",
    "post ",
    "exec:",
    "app:",
    "outs",
    "Result",
    "/*",
    "*/",
    "//",
    "#",
    "é",
    "😀",
    "\u{200b}",
    "99999999999999999999",
    "[requires = \"",
    "+",
    "x",
    "topology = ",
    "catalog = ",
    "[format]",
    "[[package]]",
    "name = ",
    // Edits, for the `edits` target (a zero byte, two of position, one of length, the text).
    "\0\x11\x01\x05step ",
    "\0\x40\x02\x03;",
    "\0\x03\x01\x20",
    "\0\x70\x01\x01\u{e9}",
    "\0\x22\x01\x60",
];

fn mutate(rng: &mut fastrand::Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds
        .get(rng.usize(..seeds.len().max(1)))
        .cloned()
        .unwrap_or_default();
    for _ in 0..rng.usize(1..6) {
        let at = rng.usize(..=data.len());
        match rng.u8(..6) {
            0 if !data.is_empty() => {
                let end = (at + rng.usize(1..64)).min(data.len());
                data.drain(at.min(end)..end);
            }
            1 => {
                let token = TOKENS[rng.usize(..TOKENS.len())].as_bytes();
                data.splice(at..at, token.iter().copied());
            }
            2 if at < data.len() => data[at] = rng.u8(..),
            3 if !data.is_empty() => {
                let start = rng.usize(..data.len());
                let end = (start + rng.usize(1..256)).min(data.len());
                let piece = data[start..end].to_vec();
                data.splice(at..at, piece);
            }
            4 if !seeds.is_empty() => {
                let other = &seeds[rng.usize(..seeds.len())];
                let start = rng.usize(..=other.len());
                data.splice(at..at, other[start..].iter().copied().take(512));
            }
            _ => data.insert(at, rng.u8(..)),
        }
    }
    data
}

/// A few of the target's structure-aware mutations of one seed.
fn mutate_structure(
    rng: &mut fastrand::Rng,
    seeds: &[Vec<u8>],
    mutate: easyflow_fuzz::Mutation,
) -> Vec<u8> {
    let mut data = seeds
        .get(rng.usize(..seeds.len().max(1)))
        .cloned()
        .unwrap_or_default();
    for _ in 0..rng.usize(1..4) {
        if let Some(mutated) = mutate(&data, rng.u32(..)) {
            data = mutated;
        }
    }
    data
}

fn replay(name: &str) {
    let target = easyflow_fuzz::target(name).expect("a target");
    for path in regressions(name) {
        let input = std::fs::read(&path).unwrap();
        run(target, &input, &path.display());
    }
    let seeds = seeds(target);
    for seed in &seeds {
        run(target, seed, &"a seed");
    }
    let count: usize = std::env::var("EASYFLOW_FUZZ_SMOKE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let seed = std::env::var("EASYFLOW_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed);
    let mut rng = fastrand::Rng::with_seed(seed);
    for i in 0..count {
        let input = match target.mutate {
            Some(structured) if rng.bool() => mutate_structure(&mut rng, &seeds, structured),
            _ => mutate(&mut rng, &seeds),
        };
        run(target, &input, &format_args!("mutation {i} of seed {seed}"));
    }
}

#[test]
fn every_target_is_replayed_here_and_has_a_fuzz_target() {
    let mut tested: Vec<&str> = TESTED.to_vec();
    tested.sort();
    let mut names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
    names.sort();
    assert_eq!(tested, names, "a test per target below");
    // Findings filed under no target would be replayed by nothing.
    for folder in folders_in(&repo_root().join("fuzz/regressions")) {
        assert!(
            names.contains(&folder.as_str()),
            "fuzz/regressions/{folder} is no target"
        );
    }
    for name in names {
        let path = repo_root()
            .join("fuzz/fuzz_targets")
            .join(format!("{name}.rs"));
        let source =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            source.contains(&format!("easyflow_fuzz::{name}(")),
            "{} calls easyflow_fuzz::{name}",
            path.display()
        );
    }
}

macro_rules! replays {
    ($($name:ident),*) => {
        const TESTED: &[&str] = &[$(stringify!($name)),*];
        $(#[test] fn $name() { replay(stringify!($name)); })*
    };
}

replays!(
    parse, analysis, ide, edits, topology, config, catalog, format
);
