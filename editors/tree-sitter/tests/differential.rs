//! The differential test: the tree-sitter grammars accept exactly the texts
//! our parsers accept. A flow has an `ERROR` or `MISSING` node in
//! tree-sitter's tree iff `easyflow_syntax::parse` reports a syntax error
//! (E0100–E0107); a topology iff `easyflow_topology::parse` reports E0601.
//!
//! Inputs: every `.flow` and `.topology` under `tests/data` (the parser,
//! analysis, LSP, CLI and fit cases, and the copy of `shared/corpus`),
//! flows from `easyflow-genflow`, random valid flows and topologies from the
//! generators below (covering every construct of the grammars), and all of
//! them broken by random edits. Each test prints how many inputs it
//! compared (`cargo test -p tree-sitter-easyflow --test differential --
//! --nocapture`).
//!
//! Three known, justified disagreements, counted apart:
//! - our parser caps bracket nesting at 128 levels (E0100, so that no input
//!   can overflow its recursive descent); tree-sitter's parser is not
//!   recursive and has no limit;
//! - a byte order mark at the very start of a flow is E0101 for our lexer,
//!   while tree-sitter's runtime skips it before the grammar sees any text
//!   (the rest of the text must then agree);
//! - U+10FFFF in a string or comment: tree-sitter's generated lexers take
//!   NUL for the end of the text in negated classes (`[^"]`), so the grammar
//!   spells them out up to U+10FFFE (`common/character-classes.js`), and
//!   keeps NUL, which is far likelier than that noncharacter.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

thread_local! {
    static FLOW_PARSER: RefCell<tree_sitter::Parser> =
        RefCell::new(parser(tree_sitter_easyflow::LANGUAGE));
    static TOPOLOGY_PARSER: RefCell<tree_sitter::Parser> =
        RefCell::new(parser(tree_sitter_easyflow::TOPOLOGY_LANGUAGE));
}

fn parser(language: tree_sitter_language::LanguageFn) -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language.into())
        .expect("the grammar's ABI is supported");
    parser
}

/// How one input was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Both accept it.
    Valid,
    /// Both reject it.
    Invalid,
    /// Our parser rejects it only for nesting deeper than its limit.
    DeepNesting,
    /// It holds U+10FFFF (a noncharacter) in a string or comment, which
    /// tree-sitter's character classes leave out to keep NUL in (see
    /// `common/character-classes.js`); the two agree once it is replaced.
    LastCodePoint,
    /// It begins with a byte order mark, which our lexer reports (E0101)
    /// and tree-sitter's runtime skips before any grammar sees it; the two
    /// agree on the rest.
    LeadingByteOrderMark,
}

const BYTE_ORDER_MARK: char = '\u{feff}';

/// Compares the flow parsers on `text`; the disagreement, if any.
fn compare_flow(text: &str) -> Result<Verdict, String> {
    let ours = easyflow_syntax::parse(text);
    for error in ours.errors() {
        let code = error.code.as_str();
        assert!(
            code.starts_with("E01"),
            "the parser reported {code}, not a syntax error"
        );
    }
    let tree = FLOW_PARSER
        .with(|parser| parser.borrow_mut().parse(text, None))
        .expect("tree-sitter parses without a timeout");
    let theirs = tree.root_node().has_error();
    let ours_rejects = !ours.errors().is_empty();
    if ours_rejects == theirs {
        return Ok(if theirs {
            Verdict::Invalid
        } else {
            Verdict::Valid
        });
    }
    let too_deep = ours
        .errors()
        .iter()
        .all(|error| error.message.contains("nested deeper than"));
    if ours_rejects && too_deep {
        return Ok(Verdict::DeepNesting);
    }
    if !ours_rejects
        && text.contains(char::MAX)
        && compare_flow(&text.replace(char::MAX, "\u{10fffe}")) == Ok(Verdict::Valid)
    {
        return Ok(Verdict::LastCodePoint);
    }
    if let Some(rest) = text.strip_prefix(BYTE_ORDER_MARK)
        && ours_rejects
        && compare_flow(rest) == Ok(Verdict::Valid)
    {
        return Ok(Verdict::LeadingByteOrderMark);
    }
    let mut message = String::new();
    if ours_rejects {
        let _ = writeln!(
            message,
            "our parser rejects this flow, tree-sitter accepts it:"
        );
        for error in ours.errors() {
            let _ = writeln!(
                message,
                "  {} at {:?}: {}",
                error.code.as_str(),
                error.range,
                error.message
            );
        }
    } else {
        let _ = writeln!(
            message,
            "tree-sitter rejects this flow, our parser accepts it:"
        );
        let _ = writeln!(message, "  {}", first_error(&tree, text));
    }
    let _ = write!(message, "--- text ---\n{text}\n--- {text:?}");
    Err(message)
}

/// Compares the topology parsers on `text`; the disagreement, if any.
fn compare_topology(text: &str) -> Result<Verdict, String> {
    let ours = easyflow_topology::parse(text);
    let syntax_errors: Vec<_> = ours
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "E0601")
        .collect();
    let tree = TOPOLOGY_PARSER
        .with(|parser| parser.borrow_mut().parse(text, None))
        .expect("tree-sitter parses without a timeout");
    let theirs = tree.root_node().has_error();
    if syntax_errors.is_empty() != theirs {
        return Ok(if theirs {
            Verdict::Invalid
        } else {
            Verdict::Valid
        });
    }
    let what = match syntax_errors.first() {
        Some(error) => format!(
            "our parser rejects this topology ({} at {:?}: {}), tree-sitter accepts it",
            error.code.as_str(),
            error.range,
            error.message
        ),
        None => format!(
            "tree-sitter rejects this topology ({}), our parser accepts it",
            first_error(&tree, text)
        ),
    };
    Err(format!("{what}:\n--- text ---\n{text}\n--- {text:?}"))
}

/// The first `ERROR` or `MISSING` node of `tree`, for messages.
fn first_error(tree: &tree_sitter::Tree, text: &str) -> String {
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            let snippet: String = text[node.byte_range()].chars().take(40).collect();
            return format!(
                "{} at {}..{}: {snippet:?}",
                if node.is_missing() {
                    format!("MISSING {}", node.kind())
                } else {
                    "ERROR".to_string()
                },
                node.start_byte(),
                node.end_byte()
            );
        }
        let descend = node.has_error() && cursor.goto_first_child();
        if !descend {
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return "an error node".to_string();
                }
            }
        }
    }
}

/// Counts of the inputs compared.
#[derive(Default)]
struct Tally {
    valid: usize,
    invalid: usize,
    deep_nesting: usize,
    byte_order_mark: usize,
    last_code_point: usize,
}

impl Tally {
    fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Valid => self.valid += 1,
            Verdict::Invalid => self.invalid += 1,
            Verdict::DeepNesting => self.deep_nesting += 1,
            Verdict::LeadingByteOrderMark => self.byte_order_mark += 1,
            Verdict::LastCodePoint => self.last_code_point += 1,
        }
    }

    fn report(&self, what: &str) {
        println!(
            "differential: {what}: {} inputs compared: {} valid and {} invalid for both parsers; \
             known disagreements: {} nested deeper than the limit, {} with a leading byte order mark, \
             {} with U+10FFFF",
            self.valid
                + self.invalid
                + self.deep_nesting
                + self.byte_order_mark
                + self.last_code_point,
            self.valid,
            self.invalid,
            self.deep_nesting,
            self.byte_order_mark,
            self.last_code_point
        );
    }
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` (recursively) with the extension `extension`.
fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Runs `compare` on every file of the test data with `extension`.
fn compare_test_data(
    extension: &str,
    compare: fn(&str) -> Result<Verdict, String>,
) -> (Tally, Vec<String>) {
    let mut tally = Tally::default();
    let mut disagreements = Vec::new();
    for path in files(&repository().join("tests/data"), extension) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // A few inputs are deliberately not UTF-8 (the CLI's encoding tests).
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        match compare(&text) {
            Ok(verdict) => tally.add(verdict),
            Err(message) => disagreements.push(format!("{}: {message}", path.display())),
        }
    }
    (tally, disagreements)
}

#[test]
fn flows_of_the_test_data() {
    let (tally, disagreements) = compare_test_data("flow", compare_flow);
    tally.report("flows of tests/data");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n\n"));
    assert!(
        tally.valid > 100 && tally.invalid > 40,
        "too few inputs found"
    );
}

#[test]
fn topologies_of_the_test_data() {
    let (tally, disagreements) = compare_test_data("topology", compare_topology);
    tally.report("topologies of tests/data");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n\n"));
    assert!(
        tally.valid > 10 && tally.invalid > 5,
        "too few inputs found"
    );
}

#[test]
fn generated_flows() {
    let mut tally = Tally::default();
    for (steps, seed) in [(1, 1), (10, 2), (50, 3), (200, 4), (1000, 5)] {
        for text in [
            easyflow_genflow::generate(steps, seed),
            easyflow_genflow::generate_with_topology(steps, seed),
        ] {
            let verdict = compare_flow(&text).unwrap_or_else(|message| panic!("{message}"));
            assert_eq!(verdict, Verdict::Valid);
            tally.add(verdict);
        }
    }
    tally.report("flows of easyflow-genflow");
}

/// Runs `cases` random cases of `strategy` through `compare`, counting them.
fn compare_random<S: Strategy<Value = String>>(
    what: &str,
    cases: u32,
    strategy: S,
    compare: fn(&str) -> Result<Verdict, String>,
    expect: Option<Verdict>,
) {
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let failure = Path::new(env!("CARGO_TARGET_TMPDIR")).join("differential-failure.txt");
    let result = runner.run(&strategy, |text| {
        let checked = compare(&text).and_then(|verdict| match expect {
            Some(expected) if verdict != expected => Err(format!(
                "expected {expected:?} for both parsers, found {verdict:?}:\n--- {text:?}"
            )),
            _ => Ok(verdict),
        });
        match checked {
            Ok(verdict) => {
                tally.borrow_mut().add(verdict);
                Ok(())
            }
            Err(message) => {
                // The whole text, for `tree-sitter parse` and for a new test case.
                let _ = std::fs::write(&failure, &text);
                Err(TestCaseError::fail(message))
            }
        }
    });
    if let Err(error) = result {
        panic!(
            "{what}: {error}\n(the last failing text is in {})",
            failure.display()
        );
    }
    tally.borrow().report(what);
}

#[test]
fn random_valid_flows() {
    compare_random(
        "random valid flows",
        1500,
        any::<u64>().prop_map(|seed| FlowGenerator::new(seed).flow()),
        compare_flow,
        Some(Verdict::Valid),
    );
}

#[test]
fn random_flows_broken_by_edits() {
    let flow = prop_oneof![
        any::<u64>().prop_map(|seed| FlowGenerator::new(seed).flow()),
        (1..12usize, any::<u64>())
            .prop_map(|(steps, seed)| easyflow_genflow::generate(steps, seed)),
    ];
    compare_random(
        "flows broken by random edits",
        4000,
        (flow, edits(FLOW_FRAGMENTS)).prop_map(|(text, edits)| apply(text, &edits)),
        compare_flow,
        None,
    );
}

#[test]
fn texts_glued_from_flow_fragments() {
    let piece = prop_oneof![
        8 => prop::sample::select(FLOW_FRAGMENTS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    compare_random(
        "texts glued from flow fragments",
        3000,
        prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat()),
        compare_flow,
        None,
    );
}

#[test]
fn random_valid_topologies() {
    compare_random(
        "random valid topologies",
        1000,
        any::<u64>().prop_map(random_topology),
        compare_topology,
        Some(Verdict::Valid),
    );
}

#[test]
fn random_topologies_broken_by_edits() {
    compare_random(
        "topologies broken by random edits",
        3000,
        (
            any::<u64>().prop_map(random_topology),
            edits(TOPOLOGY_FRAGMENTS),
        )
            .prop_map(|(text, edits)| apply(text, &edits)),
        compare_topology,
        None,
    );
}

#[test]
fn the_known_disagreements() {
    assert_eq!(
        compare_flow("\u{feff}step S runs P ();"),
        Ok(Verdict::LeadingByteOrderMark)
    );
    assert_eq!(
        compare_flow("step S runs P (x = \"\u{10ffff}\");"),
        Ok(Verdict::LastCodePoint)
    );
    assert_eq!(
        compare_flow("step S runs P (x = \"\0\"); // \0"),
        Ok(Verdict::Valid)
    );
}

#[test]
fn the_nesting_limit_is_a_known_disagreement() {
    let nested = |depth: usize| {
        format!(
            "step S runs P (x = {}{});",
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    assert_eq!(compare_flow(&nested(128)), Ok(Verdict::Valid));
    assert_eq!(compare_flow(&nested(129)), Ok(Verdict::DeepNesting));
}

/// One random edit: at (a fraction of the text's length), remove about
/// `removed` bytes, insert `inserted`.
type Edit = (usize, usize, String);

fn edits(fragments: &'static [&'static str]) -> impl Strategy<Value = Vec<Edit>> {
    let inserted = prop_oneof![
        3 => prop::sample::select(fragments).prop_map(str::to_string),
        1 => Just(String::new()),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec((any::<usize>(), 0..6usize, inserted), 1..4)
}

fn apply(mut text: String, edits: &[Edit]) -> String {
    for (at, removed, inserted) in edits {
        easyflow_genflow::edit(&mut text, *at, *removed, inserted);
    }
    text
}

/// Pieces of flows, valid and not, to insert.
const FLOW_FRAGMENTS: &[&str] = &[
    "flow",
    "require",
    "step",
    "sweep",
    "runs",
    "after",
    "on",
    "true",
    "false",
    "pre",
    "post",
    "app",
    "exec",
    "code",
    "end",
    "code end",
    "\ncode end",
    "\n  code end\n",
    "app:",
    "exec:",
    "~step",
    "~ step",
    "~",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "=",
    ";",
    ":",
    ".",
    ",",
    "<-",
    "<",
    "-",
    "+",
    "@",
    "/",
    "*",
    "\\",
    "\"",
    "'",
    "$",
    "#",
    "S1",
    "Step_3",
    "_x",
    "Package.Method",
    "@high",
    "0",
    "42",
    "-7",
    "+3",
    "3.14",
    ".5",
    "1e5",
    "1.5e-3",
    "5.",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "1e",
    "1.e5.3",
    "\"text\"",
    "\"a\\\"b\"",
    "\"\\u00e9\"",
    "\"\\u12\"",
    "\"\\q\"",
    "\"\\101\"",
    "\"\\477\"",
    "\"open",
    "\"two\nlines\"",
    "\"\\",
    "\"этап\"",
    "// comment",
    "// комментарий\n",
    "/* block */",
    "/* open",
    "*/",
    "pre code ruby\n  x = 1\ncode end",
    "post code python\r\n  print(1)\r\ncode end",
    "post code\n",
    "pre /* c */ code\n code endless\n",
    "step S runs P ();",
    "[flow:name = \"n\"]",
    "[priority = @high]",
    "require f1, f2;",
    "x = sweep [1, 2, 3]",
    "[1, [2, [3]]]",
    "app: a = 1, exec: nodes = 2",
    "in <- S.Result.outs",
    "on S1",
    "шаг",
    "stepшаг",
    "codeш",
    "—",
    "é",
    "\u{0}",
    "\u{10ffff}",
    "\u{feff}",
    "\u{b}",
    "\u{c}",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
];

/// Pieces of topologies, valid and not, to insert.
const TOPOLOGY_FRAGMENTS: &[&str] = &[
    "compute",
    "GPU",
    "_x",
    "a1",
    "+",
    "#",
    ":",
    "x",
    ",",
    "/",
    "0",
    "7",
    "65535",
    "65536",
    "18446744073709551616",
    "// comment",
    "//",
    "/",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\u{c}",
    "\u{b}",
    "\u{feff}",
    "é",
    "-",
    "x1",
    "1x",
    "::",
    "++",
];

/// Random valid flows exercising every construct of language.md §2, with
/// random trivia (spaces, line breaks of every kind, comments) wherever the
/// language allows it.
struct FlowGenerator {
    rng: fastrand::Rng,
    out: String,
}

const NAMES: &[&str] = &[
    "A", "S1", "Step", "_x", "app", "exec", "code", "end", "stepper", "trueish", "on_", "Pre",
    "input0", "outs", "Result", "x9",
];

const STRINGS: &[&str] = &[
    "\"\"",
    "\"text\"",
    "\"a\\\"b \\\\ \\' \\b\\t\\n\\f\\r\"",
    "\"\\u00e9\\uABCD\"",
    "\"\\0 \\7 \\101 \\377 \\477 \\1234\"",
    "\"two\nlines\r\nand \rthree\"",
    "\"этап 😀\"",
    "\"// not a comment /* nor this */\"",
    "\"code end\"",
];

const NUMBERS: &[&str] = &[
    "0",
    "42",
    "-7",
    "+3",
    "007",
    "9223372036854775807",
    "-9223372036854775808",
    "+9223372036854775807",
    "0009223372036854775807",
    "1.",
    "1.5",
    ".5",
    "1e5",
    "1.5e-3",
    ".34e10",
    "5.e-14",
    "-2.5",
    "+.5",
    "99999999999999999999.5",
    "1E+5",
];

impl FlowGenerator {
    fn new(seed: u64) -> Self {
        FlowGenerator {
            rng: fastrand::Rng::with_seed(seed),
            out: String::new(),
        }
    }

    fn chance(&mut self, percent: u8) -> bool {
        self.rng.u8(..100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.usize(..items.len())]
    }

    /// Trivia between two tokens: usually one space, sometimes nothing,
    /// line breaks or comments.
    fn trivia(&mut self) {
        let trivia = match self.rng.u8(..40) {
            0..=19 => " ",
            20..=25 => "",
            26..=28 => "\n",
            29 => "\r\n",
            30 => "\r",
            31 => "\t",
            32 => "\n\n  ",
            33 => " /* block */ ",
            34 => "/*\n * multi-line ** comment\n */",
            35 => " // line comment\n",
            36 => "// комментарий\r\n",
            37 => "/**/",
            38 => "\n// comment\n\n",
            _ => "  ",
        };
        self.out.push_str(trivia);
    }

    /// Appends `token` after trivia, with a space where the two would
    /// otherwise run together into one token.
    fn token(&mut self, token: &str) {
        self.trivia();
        let joins = |c: char| c.is_ascii_alphanumeric() || "_.@+-\"".contains(c);
        let last = self.out.chars().next_back();
        let first = token.chars().next();
        if let (Some(last), Some(first)) = (last, first)
            && joins(last)
            && joins(first)
        {
            self.out.push(' ');
        }
        // `<` `-` and `/` `*` or `/` `/` would form other tokens.
        if (last == Some('<') && first == Some('-')) || (last == Some('/') && first == Some('/')) {
            self.out.push(' ');
        }
        self.out.push_str(token);
    }

    fn name(&mut self) {
        let name = self.pick(NAMES);
        self.token(name);
    }

    fn flow(mut self) -> String {
        for _ in 0..self.rng.usize(0..6) {
            match self.rng.u8(..6) {
                0 => self.flow_attribute(),
                1 => self.require(),
                _ => self.step(),
            }
        }
        self.trivia();
        self.out
    }

    fn flow_attribute(&mut self) {
        for token in ["[", "flow", ":"] {
            self.token(token);
        }
        self.name();
        self.token("=");
        self.expression(2);
        self.token("]");
    }

    fn require(&mut self) {
        self.token("require");
        self.name();
        for _ in 0..self.rng.usize(0..3) {
            self.token(",");
            self.name();
        }
        self.token(";");
    }

    fn step(&mut self) {
        for _ in 0..self.rng.usize(0..3) {
            self.token("[");
            self.name();
            self.token("=");
            self.expression(2);
            self.token("]");
        }
        if self.chance(20) {
            self.token("~");
            self.out.push_str("step");
        } else {
            self.token("step");
        }
        self.name();
        self.token("runs");
        self.name();
        for _ in 0..self.rng.usize(0..3) {
            self.token(".");
            self.name();
        }
        if self.chance(30) {
            let keyword = if self.chance(80) { "after" } else { "on" };
            self.token(keyword);
            self.name();
            for _ in 0..self.rng.usize(0..3) {
                self.token(",");
                self.name();
            }
        }
        self.parameters();
        for _ in 0..self.rng.usize(0..3) {
            let keyword = if self.chance(50) { "pre" } else { "post" };
            self.token(keyword);
            self.code_block();
        }
        if self.chance(70) {
            self.token(";");
        }
    }

    fn parameters(&mut self) {
        self.token("(");
        let app = self.chance(30);
        if app {
            self.token("app");
            self.token(":");
        }
        let plain = self.chance(70);
        let trailing_comma = plain && self.parameter_list();
        if self.chance(30) {
            if plain && !trailing_comma && self.chance(50) {
                // The comma before `exec:` is optional.
                self.token(",");
            }
            self.token("exec");
            self.token(":");
            self.parameter_list();
        }
        self.token(")");
    }

    /// Whether the list ends with a (trailing) comma.
    fn parameter_list(&mut self) -> bool {
        for i in 0..self.rng.usize(1..4) {
            if i > 0 {
                self.token(",");
            }
            if self.chance(10) {
                self.token(":");
            }
            self.name();
            let operator = if self.chance(80) { "=" } else { "<-" };
            self.token(operator);
            if self.chance(15) {
                self.token("sweep");
            }
            self.expression(3);
        }
        let trailing_comma = self.chance(20);
        if trailing_comma {
            self.token(",");
        }
        trailing_comma
    }

    fn expression(&mut self, depth: u8) {
        match self.rng.u8(..8) {
            0 => {
                let string = self.pick(STRINGS);
                self.token(string);
            }
            1 => {
                let number = self.pick(NUMBERS);
                self.token(number);
            }
            2 => {
                let literal = self.pick(&["true", "false", "@high", "@normal", "@_x1"]);
                self.token(literal);
            }
            3 if depth > 0 => {
                self.token("[");
                for i in 0..self.rng.usize(0..4) {
                    if i > 0 {
                        self.token(",");
                    }
                    self.expression(depth - 1);
                }
                self.token("]");
            }
            _ => self.reference(depth),
        }
    }

    fn reference(&mut self, depth: u8) {
        for i in 0..self.rng.usize(1..4) {
            if i > 0 {
                self.token(".");
            }
            self.name();
            if depth > 0 && self.chance(25) {
                self.token("[");
                self.expression(depth - 1);
                self.token("]");
            }
        }
    }

    fn code_block(&mut self) {
        self.token("code");
        let header = self.pick(&[
            "", " ruby", " python", "\tshell", " ruby  ", " x // y", " Ruby2",
        ]);
        self.out.push_str(header);
        let line_break = self.pick(&["\n", "\r\n", "\r", "\n\n"]);
        self.out.push_str(line_break);
        for _ in 0..self.rng.usize(0..4) {
            let line = self.pick(&[
                "  x = 1",
                "",
                "  decode end",
                "code endless",
                "  code",
                "code_end",
                "  codeend",
                "  puts \"code end\"",
                "\t# этап",
                "end",
                "  print(x) // step",
            ]);
            self.out.push_str(line);
            let line_break = self.pick(&["\n", "\r\n", "\r"]);
            self.out.push_str(line_break);
        }
        let closing = self.pick(&["code end", "  code end", "\tcode\t end", "code   end"]);
        self.out.push_str(closing);
    }
}

/// A random valid topology: worker descriptions with every optional part,
/// separated by whitespace and comments.
fn random_topology(seed: u64) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let capabilities = ["compute", "CPU", "GPU", "IO", "load", "_x", "a1"];
    let numbers = ["0", "1", "24", "0002", "65535", "18446744073709551616"];
    let separators = [
        " ",
        "\n",
        "\r\n",
        "\t",
        "\u{c}",
        "  // comment\n",
        "//c\n",
        "\n\n",
    ];
    let mut out = String::new();
    if rng.u8(..20) == 0 {
        out.push('\u{feff}');
    }
    let number = |rng: &mut fastrand::Rng| numbers[rng.usize(..numbers.len())];
    for i in 0..rng.usize(0..6) {
        if i > 0 || rng.bool() {
            out.push_str(separators[rng.usize(..separators.len())]);
        }
        for j in 0..rng.usize(1..4) {
            if j > 0 {
                out.push('+');
            }
            out.push_str(capabilities[rng.usize(..capabilities.len())]);
        }
        if rng.u8(..4) == 0 {
            out.push('#');
            out.push_str(number(&mut rng));
        }
        if rng.bool() {
            out.push(':');
            out.push_str(number(&mut rng));
            for mark in ['x', ',', '/'] {
                if rng.bool() {
                    out.push(mark);
                    out.push_str(number(&mut rng));
                }
            }
        }
        if rng.u8(..8) == 0 {
            out.push_str("// comment right after\n");
        }
    }
    if rng.bool() {
        out.push_str(separators[rng.usize(..separators.len())]);
    }
    out
}
