//! Project automation: `cargo xtask <task>`.
//!
//! - `test`: every test of the project (what `.ci/run` runs).
//! - `genflow N [--seed S] [--topology FILE]`: prints a generated flow of N
//!   steps (the benchmark workload, shaped like `shared/tools/genflow.py`).

use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("genflow") => genflow(&args[1..]),
        _ => Err("usage: cargo xtask <test | genflow N [--seed S] [--topology FILE]>".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("xtask: running {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} {} failed: {status}", args.join(" ")))
    }
}

fn test() -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    // Builds the binaries the end-to-end tests spawn, then runs every test
    // (unit, data-driven, property and end-to-end) of every crate.
    run(&cargo, &["test", "--workspace", "--locked"])?;
    // The benchmarks must keep compiling even though CI does not time them.
    run(&cargo, &["bench", "--workspace", "--locked", "--no-run"])
}

fn genflow(args: &[String]) -> Result<(), String> {
    let mut steps = None;
    let mut seed = 7;
    let mut topology = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seed needs a number")?;
            }
            "--topology" => topology = Some(args.next().ok_or("--topology needs a path")?.clone()),
            n => {
                steps = Some(
                    n.parse::<usize>()
                        .map_err(|_| format!("not a step count: {n}"))?,
                )
            }
        }
    }
    let steps = steps.ok_or("genflow needs a step count")?;
    let flow = match &topology {
        Some(path) => {
            std::fs::write(path, easyflow_genflow::TOPOLOGY).map_err(|e| format!("{path}: {e}"))?;
            easyflow_genflow::generate_with_topology(steps, seed)
        }
        None => easyflow_genflow::generate(steps, seed),
    };
    print!("{flow}");
    Ok(())
}
