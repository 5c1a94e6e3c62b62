//! Silencing and promoting through the `easyflow-ls` binary:
//!
//! - every `tests/data/silence/X.project` (the cases the CLI checks in
//!   `crates/cli/tests/silence.rs`): the server is started on the project
//!   folder and opens each of its text files, and `X.lsp.txt` must hold the
//!   diagnostics published for each, with their severities;
//! - a change of `[diagnostics]` in `easyflow.toml`, on the disk and as an
//!   open document, re-checks the open flows;
//! - the quick fixes "Allow CODE on this line" and W0905's, applied by the
//!   client and re-checked;
//! - a property: for random flows with random allow comments and random
//!   `[diagnostics]` lists, the server and the CLI (its JSON, SARIF and
//!   human reports) both report exactly the diagnostics the rules find that
//!   nothing silences, the denied ones as errors, and W0905 on the codes of
//!   comments that silence nothing, as an oracle written from the
//!   specification's words (lines, not the analysis's code) computes them.

mod support;

use std::fmt::Write as _;
use std::path::Path;

use easyflow_test_harness::project::Project;
use easyflow_test_harness::{Case, Failed, Harness, Outputs};
use serde_json::{Value, json};
use support::{Server, full_client};

/// A diagnostic as the property compares it: code, line, column (bytes:
/// its flows are ASCII), severity.
type Reported = (String, u32, u32, &'static str);

fn severity_name(severity: &Value) -> &'static str {
    match severity.as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "information",
        _ => "?",
    }
}

fn session(case: &Case) -> Result<Outputs, Failed> {
    let project = Project::create(&case.text);
    let root = project.root();
    let mut server = Server::start();
    server.initialize(&root, full_client(), json!({}));
    let mut report = String::new();
    let mut codes = Vec::new();
    for (path, text) in &project.texts {
        let uri = server.open(path, text);
        let name = path.strip_prefix(&root).unwrap().display();
        writeln!(report, "diagnostics of {name}:")?;
        for diagnostic in server.diagnostics(&uri, 0) {
            let range = &diagnostic["range"];
            let code = diagnostic["code"].as_str().unwrap_or("?");
            codes.push(code.to_string());
            writeln!(
                report,
                "  {code} {} {}:{}-{}:{} {}",
                severity_name(&diagnostic["severity"]),
                range["start"]["line"],
                range["start"]["character"],
                range["end"]["line"],
                range["end"]["character"],
                diagnostic["message"].as_str().unwrap_or("?"),
            )?;
        }
    }
    let status = server.stop();
    assert!(status.success(), "the server exited with {status}");
    case.check_named_code(&codes)?;
    Ok(vec![("lsp.txt", project.redact(&report))])
}

/// The codes and severities of `diagnostics`.
fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap_or("?"),
                severity_name(&d["severity"])
            )
        })
        .collect()
}

/// The diagnostics of `uri` at `version` once they equal `expected`
/// (a change of `easyflow.toml` republishes the open flows' at the same
/// version; earlier publications may come first).
fn wait_for_codes(server: &mut Server, uri: &str, version: i64, expected: &[&str]) {
    let deadline = std::time::Instant::now() + support::TIMEOUT;
    loop {
        let got = codes(&server.diagnostics(uri, version));
        if got == expected {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "expected {expected:?}, got {got:?}"
        );
    }
}

const FLOW: &str = "require molecule, unused;\n\n[prority = @high]\nstep Load runs Loader.Read (source = molecule);\n";

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

/// `[diagnostics]` changed on the disk (a watched change) and in the
/// editor (an open `easyflow.toml`, edited): the open flow is checked
/// again with the new levels each time, and closing the document goes
/// back to the disk's.
fn levels_follow_easyflow_toml() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let config = dir.path().join("easyflow.toml");
    write(&config, "[diagnostics]\nallow = [\"W0206\"]\n");
    let flow = dir.path().join("main.flow");
    write(&flow, FLOW);
    let mut server = Server::start();
    server.initialize(dir.path(), full_client(), json!({}));
    let uri = server.open(&flow, FLOW);
    wait_for_codes(&mut server, &uri, 0, &["W0405 warning"]);

    write(&config, "[diagnostics]\ndeny = [\"W0405\"]\n");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": support::uri(&config), "type": 2}]}),
    );
    wait_for_codes(&mut server, &uri, 0, &["W0206 warning", "W0405 error"]);

    let config_uri = server.open(&config, "[diagnostics]\ndeny = [\"W0405\"]\n");
    assert!(server.diagnostics(&config_uri, 0).is_empty());
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": config_uri, "version": 1},
            "contentChanges": [{"text": "[diagnostics]\nallow = [\"W0206\", \"W0405\"]\ndeny = [\"W0405\"]\n"}],
        }),
    );
    // W0405 in both lists: W0904 on the file, and the code is neither.
    assert_eq!(
        codes(&server.diagnostics(&config_uri, 1)),
        ["W0904 warning"]
    );
    wait_for_codes(&mut server, &uri, 0, &["W0405 warning"]);

    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": config_uri}}),
    );
    wait_for_codes(&mut server, &uri, 0, &["W0206 warning", "W0405 error"]);
    assert_eq!(server.stop().code(), Some(0));
    Ok(())
}

/// The code action of `title` for the diagnostic of `code` in `uri`.
fn action(server: &mut Server, uri: &str, diagnostics: &[Value], code: &str, title: &str) -> Value {
    let diagnostic = diagnostics
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {diagnostics:?}"));
    let actions = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]},
        }),
    );
    actions
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["title"] == title)
        .unwrap_or_else(|| panic!("no action {title:?} in {actions}"))
        .clone()
}

/// The client's side of a code action: its edits of `uri` sent as a
/// change, in reverse order so that each range holds.
fn apply(server: &mut Server, uri: &str, version: i64, action: &Value) {
    let mut edits: Vec<Value> = action["edit"]["changes"][uri]
        .as_array()
        .cloned()
        .unwrap_or_default();
    edits.reverse();
    let changes: Vec<Value> = edits
        .iter()
        .map(|e| json!({"range": e["range"], "text": e["newText"]}))
        .collect();
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
    );
}

/// "Allow CODE on this line" through the server: applied, the flow is
/// checked again without the code; a comment that then silences nothing
/// (the line fixed) gets W0905, whose fix removes it.
fn allow_quick_fix_applied_and_rechecked() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let flow = dir.path().join("main.flow");
    let text = "require molecule, unused;\nstep Load runs Loader.Read (source = molecule);\n";
    let mut server = Server::start();
    server.initialize(dir.path(), full_client(), json!({}));
    let uri = server.open(&flow, text);
    let diagnostics = server.diagnostics(&uri, 0);
    assert_eq!(codes(&diagnostics), ["W0206 warning"]);
    let allow = action(
        &mut server,
        &uri,
        &diagnostics,
        "W0206",
        "Allow W0206 on this line",
    );
    assert_eq!(allow["isPreferred"], false);
    apply(&mut server, &uri, 1, &allow);
    assert!(server.diagnostics(&uri, 1).is_empty());

    // The unused name goes: the comment now silences nothing.
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 16}, "end": {"line": 0, "character": 24}}, "text": ""}],
        }),
    );
    let diagnostics = server.diagnostics(&uri, 2);
    assert_eq!(codes(&diagnostics), ["W0905 warning"]);
    assert_eq!(diagnostics[0]["tags"], json!([1]));
    let remove = action(
        &mut server,
        &uri,
        &diagnostics,
        "W0905",
        "Remove the allow comment",
    );
    apply(&mut server, &uri, 3, &remove);
    assert!(server.diagnostics(&uri, 3).is_empty());
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(symbols.as_array().map(Vec::len), Some(2));
    assert_eq!(server.stop().code(), Some(0));
    Ok(())
}

mod property {
    //! Random flows, random allow comments, random `[diagnostics]`: the
    //! oracle works in lines, as the specification words it.

    use super::Reported;
    use easyflow_db::{Database, SourceFile};
    use fastrand::Rng;

    /// What a random project expects: its files and, per diagnostic, the
    /// code, line, column (bytes: the flows are ASCII) and severity.
    pub struct Generated {
        pub flow: String,
        pub config: String,
        pub expected: Vec<Reported>,
        /// How many diagnostics a comment silenced, the levels allowed,
        /// and the levels denied (so the property is seen to cover each).
        pub counts: [usize; 3],
    }

    /// A comment the generator wrote, and the line it applies to.
    struct Comment {
        /// Each code with its line and column.
        codes: Vec<(String, u32, u32)>,
        target: Option<u32>,
    }

    const CODES: &[&str] = &[
        "W0204", "W0206", "W0208", "I0209", "W0210", "W0404", "W0405", "W0406", "W0501", "W0502",
        "W0503", "W0905", "E0201", "E0203", "w0206", "X1",
    ];

    fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
        from[rng.usize(..from.len())]
    }

    /// Lines of code, each a complete line (so a comment can end it), with
    /// the codes each is likely to get.
    fn code_lines(
        rng: &mut Rng,
        i: usize,
        steps: &mut Vec<String>,
    ) -> Vec<(String, &'static [&'static str])> {
        let e = match steps.is_empty() {
            true => "input".to_string(),
            false => steps[rng.usize(..steps.len())].clone(),
        };
        let lines: Vec<(String, &'static [&'static str])> = match rng.u8(..13) {
            0 => vec![(format!("require r{i}, u{i};"), &["W0206"])],
            1 => vec![
                (format!("require d{i}, d{i};"), &["W0204"]),
                (format!("step U{i} runs P (x = d{i});"), &[]),
            ],
            2 => vec![(
                format!("step S{i} runs P after {e}, {e} (x = {e}.outs);"),
                &["W0208", "I0209"],
            )],
            3 => vec![(
                format!("[prority = @high] step S{i} runs P ();"),
                &["W0405"],
            )],
            4 => vec![
                ("[priority = @hihg]".to_string(), &["W0406"]),
                (format!("step S{i} runs P ();"), &[]),
            ],
            5 => vec![("[flow: autor = \"me\"]".to_string(), &["W0501"])],
            6 => vec![(
                "[flow: priority = @lo] [flow: priority = @low]".to_string(),
                &["W0502", "W0503"],
            )],
            7 => vec![(format!("step S{i} runs P (x = sweep []);"), &["W0404"])],
            8 => vec![(format!("step S{i} runs P (x = {e}.out);"), &["W0210"])],
            9 => vec![(format!("step S{i} runs P (x = Nope{i});"), &["E0201"])],
            10 => vec![
                (format!("step S{i} runs P after {e},"), &["I0209"]),
                (format!("  {e}"), &["W0208", "I0209"]),
                ("(".to_string(), &[]),
                (format!("  x = {e}.outs,"), &[]),
                (format!("  y = {e}.out"), &["W0210"]),
                (");".to_string(), &[]),
            ],
            11 => vec![
                (format!("step S{i} runs P ();"), &[]),
                (format!("step S{i} runs Q ();"), &["E0203"]),
            ],
            _ => vec![(format!("step S{i} runs P (x = {e}.outs);"), &[])],
        };
        if lines
            .iter()
            .any(|(l, _)| l.contains(&format!("step S{i} ")))
        {
            steps.push(format!("S{i}"));
        }
        lines
    }

    /// An allow comment starting at `column` of `line`, naming mostly the
    /// codes `likely` (and anything else now and then).
    fn allow_text(
        rng: &mut Rng,
        likely: &[&str],
        line: u32,
        column: u32,
    ) -> (String, Vec<(String, u32, u32)>) {
        let mut text = "// easyflow: allow(".to_string();
        let mut codes = Vec::new();
        for k in 0..rng.usize(1..4) {
            if k > 0 {
                text.push_str(", ");
            }
            let code = match likely.is_empty() || rng.u8(..3) == 0 {
                true => pick(rng, CODES),
                false => pick(rng, likely),
            };
            codes.push((code.to_string(), line, column + text.len() as u32));
            text.push_str(code);
        }
        text.push(')');
        (text, codes)
    }

    pub fn generate(seed: u64) -> Generated {
        let mut rng = Rng::with_seed(seed);
        let mut lines: Vec<String> = vec!["require input;".to_string()];
        let mut comments: Vec<Comment> = Vec::new();
        let mut steps = Vec::new();
        let mut seen: Vec<&'static str> = Vec::new();
        for i in 0..rng.usize(1..12) {
            let code = code_lines(&mut rng, i, &mut steps);
            // An own-line comment for the first line of code, with blank
            // and comment lines between.
            if rng.u8(..3) == 0 {
                let line = lines.len() as u32;
                let (text, codes) = allow_text(&mut rng, code[0].1, line, 0);
                lines.push(text);
                for _ in 0..rng.usize(..3) {
                    lines.push(pick(&mut rng, &["", "// note", "/* c */", "   "]).to_string());
                }
                comments.push(Comment {
                    codes,
                    target: Some(lines.len() as u32),
                });
            }
            for (mut text, likely) in code {
                seen.extend(likely);
                let line = lines.len() as u32;
                if rng.u8(..3) == 0 {
                    text.push(' ');
                    let (comment, codes) = allow_text(&mut rng, likely, line, text.len() as u32);
                    text.push_str(&comment);
                    comments.push(Comment {
                        codes,
                        target: Some(line),
                    });
                }
                lines.push(text);
            }
        }
        if rng.u8(..4) == 0 {
            let line = lines.len() as u32;
            let (text, codes) = allow_text(&mut rng, &[], line, 0);
            lines.push(text);
            comments.push(Comment {
                codes,
                target: None,
            });
        }
        let flow = lines.join("\n") + "\n";
        let list = |rng: &mut Rng| -> Vec<&'static str> {
            (0..rng.usize(..4))
                .map(|_| match seen.is_empty() || rng.u8(..3) == 0 {
                    true => pick(rng, CODES),
                    false => pick(rng, &seen),
                })
                .collect()
        };
        let (allow, deny) = (list(&mut rng), list(&mut rng));
        let quoted = |codes: &[&str]| {
            codes
                .iter()
                .map(|c| format!("\"{c}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let config = format!(
            "[diagnostics]\nallow = [{}]\ndeny = [{}]\n",
            quoted(&allow),
            quoted(&deny)
        );
        let (expected, counts) = oracle(&flow, &comments, &allow, &deny);
        Generated {
            flow,
            config,
            expected,
            counts,
        }
    }

    /// The specification, in lines: a warning or note is silenced when a
    /// comment that applies to its line names its code (once); the other
    /// codes of comments get W0905; then `allow` (less `deny`) drops, `deny`
    /// (less `allow`) makes errors. The rules' diagnostics come from the
    /// analysis before any silencing.
    fn oracle(
        flow: &str,
        comments: &[Comment],
        allow: &[&str],
        deny: &[&str],
    ) -> (Vec<Reported>, [usize; 3]) {
        let db = Database::default();
        let file = SourceFile::new(&db, "p.flow".into(), flow.into());
        let rules = easyflow_db::diagnostics::rule_diagnostics(&db, file);
        let position = |offset: usize| {
            let line = flow[..offset].matches('\n').count() as u32;
            let start = flow[..offset].rfind('\n').map_or(0, |i| i + 1);
            (line, (offset - start) as u32)
        };
        let mut used: Vec<Vec<bool>> = comments
            .iter()
            .map(|c| vec![false; c.codes.len()])
            .collect();
        let mut counts = [0; 3];
        let mut out = Vec::new();
        for d in &rules {
            let code = d.code.as_str();
            let (line, column) = position(usize::from(d.range.start()));
            let mut silenced = false;
            if !code.starts_with('E') && code != "W0905" {
                for (c, comment) in comments.iter().enumerate() {
                    if comment.target != Some(line) {
                        continue;
                    }
                    for (k, (name, _, _)) in comment.codes.iter().enumerate() {
                        let first = comment.codes.iter().position(|(n, _, _)| n == name) == Some(k);
                        if name == code && first {
                            used[c][k] = true;
                            silenced = true;
                        }
                    }
                }
            }
            match silenced {
                true => counts[0] += 1,
                false => out.push((code.to_string(), line, column)),
            }
        }
        for (comment, used) in comments.iter().zip(&used) {
            for ((_, line, column), used) in comment.codes.iter().zip(used) {
                if !used {
                    out.push(("W0905".to_string(), *line, *column));
                }
            }
        }
        let silenceable = |code: &str| {
            easyflow_diagnostics::Code::ALL
                .iter()
                .any(|c| c.as_str() == code && !code.starts_with('E'))
        };
        let allowed =
            |code: &str| silenceable(code) && allow.contains(&code) && !deny.contains(&code);
        let denied =
            |code: &str| silenceable(code) && deny.contains(&code) && !allow.contains(&code);
        counts[1] = out.iter().filter(|(code, _, _)| allowed(code)).count();
        counts[2] = out.iter().filter(|(code, _, _)| denied(code)).count();
        let mut expected: Vec<_> = out
            .into_iter()
            .filter(|(code, _, _)| !allowed(code))
            .map(|(code, line, column)| {
                let severity = if denied(&code) || code.starts_with('E') {
                    "error"
                } else if code.starts_with('W') {
                    "warning"
                } else {
                    "information"
                };
                (code, line, column, severity)
            })
            .collect();
        expected.sort();
        (expected, counts)
    }
}

/// The CLI's reports of the flow at `flow` (in its project): its
/// diagnostics from the JSON report, each with the SARIF result's level and
/// the human report's severity word, which must agree; and the exit status
/// `easyflow check` would give.
fn cli_reports(flow: &Path) -> Result<(Vec<Reported>, bool), Failed> {
    use easyflow_cli::{check, checked::Counts, report};
    let check = check::check(&[flow.to_path_buf()], None, None)?;
    let mut json = Vec::new();
    report::json(&check.files[..1], &mut json)?;
    let json: Value = serde_json::from_slice(&json)?;
    let mut sarif = Vec::new();
    report::sarif(&check.files[..1], &mut sarif)?;
    let sarif: Value = serde_json::from_slice(&sarif)?;
    let mut human = codespan_buffer();
    report::human(&check.files[..1], &mut human)?;
    let human = String::from_utf8(human.into_inner())?;
    let results = sarif["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let diagnostics = json["files"][0]["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(results.len(), diagnostics.len());
    let mut found = Vec::new();
    for (d, result) in diagnostics.iter().zip(&results) {
        let code = d["code"].as_str().unwrap_or("?").to_string();
        let severity = match d["severity"].as_str() {
            Some("error") => "error",
            Some("warning") => "warning",
            _ => "information",
        };
        let level = match severity {
            "information" => "note",
            other => other,
        };
        assert_eq!(result["level"], level, "{result}");
        assert_eq!(result["ruleId"], code.as_str());
        let word = match severity {
            "information" => "note",
            other => other,
        };
        assert!(
            human.contains(&format!("{word}[{code}]")),
            "{word}[{code}] not in {human}"
        );
        found.push((
            code,
            d["range"]["start"]["line"].as_u64().unwrap_or(0) as u32,
            d["range"]["start"]["character"].as_u64().unwrap_or(0) as u32,
            severity,
        ));
    }
    found.sort();
    let fails = Counts::of(&check.files[..1]).errors > 0;
    Ok((found, fails))
}

fn codespan_buffer() -> codespan_reporting::term::termcolor::NoColor<Vec<u8>> {
    codespan_reporting::term::termcolor::NoColor::new(Vec::new())
}

/// The property, over `EASYFLOW_SILENCE_CASES` random projects (64).
fn reported_equals_unsilenced() -> Result<(), Failed> {
    let cases: u64 = std::env::var("EASYFLOW_SILENCE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let dir = tempfile::tempdir()?;
    let root = dir.path().canonicalize()?;
    let mut server = Server::start();
    server.initialize(&root, full_client(), json!({}));
    let mut counts = [0; 3];
    let mut unused = 0;
    for seed in 0..cases {
        let generated = property::generate(seed);
        for (total, count) in counts.iter_mut().zip(generated.counts) {
            *total += count;
        }
        unused += generated.expected.iter().filter(|d| d.0 == "W0905").count();
        let folder = root.join(format!("case{seed}"));
        std::fs::create_dir(&folder)?;
        write(&folder.join("easyflow.toml"), &generated.config);
        let flow = folder.join("p.flow");
        write(&flow, &generated.flow);
        let context = || {
            format!(
                "seed {seed}\n--- easyflow.toml\n{}--- p.flow\n{}",
                generated.config, generated.flow
            )
        };
        let (cli, fails) = cli_reports(&flow)?;
        assert_eq!(cli, generated.expected, "the CLI, {}", context());
        assert_eq!(
            fails,
            generated.expected.iter().any(|d| d.3 == "error"),
            "the exit status, {}",
            context()
        );
        let uri = server.open(&flow, &generated.flow);
        let mut published: Vec<Reported> = server
            .diagnostics(&uri, 0)
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap_or("?").to_string(),
                    d["range"]["start"]["line"].as_u64().unwrap_or(0) as u32,
                    d["range"]["start"]["character"].as_u64().unwrap_or(0) as u32,
                    severity_name(&d["severity"]),
                )
            })
            .collect();
        published.sort();
        assert_eq!(published, generated.expected, "the server, {}", context());
        server.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    assert_eq!(server.stop().code(), Some(0));
    let [silenced, allowed, denied] = counts;
    eprintln!(
        "{cases} projects: {silenced} diagnostics silenced by comments, {allowed} allowed, \
         {denied} denied, {unused} W0905 reported"
    );
    if cases >= 32 {
        assert!(silenced > 0 && allowed > 0 && denied > 0 && unused > 0);
    }
    Ok(())
}

fn main() {
    Harness::new()
        .folder("silence", "project", session)
        .test("levels follow easyflow.toml", levels_follow_easyflow_toml)
        .test(
            "allow quick fix applied and rechecked",
            allow_quick_fix_applied_and_rechecked,
        )
        .test("reported equals unsilenced", reported_equals_unsilenced)
        .run();
}
