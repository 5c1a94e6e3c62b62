//! The parser of topology files (topology.md §2) and the checks between
//! worker types (W0603, E0604).

use std::collections::{BTreeSet, HashMap};

use easyflow_diagnostics::{Code, Diagnostic, TextRange};

use crate::model::{Capability, FieldRanges, Topology, WorkerType};
use crate::text::{found, is_identifier_continue, is_identifier_start, range, run_end};

const BYTE_ORDER_MARK: &str = "\u{feff}";
const END_OF_DESCRIPTION: &str = "the end of the worker description";

/// Parses a topology file. Never panics; every problem is a diagnostic.
pub fn parse(text: &str) -> Topology {
    let mut diagnostics = Vec::new();
    let mut workers = Vec::new();
    // Some editors start UTF-8 files with a byte order mark; it is no text.
    let mut pos = if text.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len()
    } else {
        0
    };
    loop {
        pos = skip_separators(text, pos);
        if pos >= text.len() {
            break;
        }
        let end = description_end(text, pos);
        let mut description = Description {
            text,
            pos,
            end,
            diagnostics: &mut diagnostics,
            out_of_range: false,
        };
        if let Some(worker) = description.parse() {
            workers.push(worker);
        }
        pos = end;
    }
    check_capability_sets(&workers, &mut diagnostics);
    check_port_overlaps(&workers, &mut diagnostics);
    easyflow_diagnostics::sort(&mut diagnostics);
    Topology {
        workers,
        diagnostics,
    }
}

/// Skips whitespace and `//` comments.
fn skip_separators(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        if bytes[pos].is_ascii_whitespace() {
            pos += 1;
        } else if bytes[pos..].starts_with(b"//") {
            pos = bytes[pos..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |length| pos + length);
        } else {
            break;
        }
    }
    pos
}

/// A description runs to the next whitespace or comment.
fn description_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    (start..bytes.len())
        .find(|&i| bytes[i].is_ascii_whitespace() || bytes[i..].starts_with(b"//"))
        .unwrap_or(bytes.len())
}

/// A number as written: its value when it fits in 64 bits, and its range.
struct Number {
    value: Option<u64>,
    range: TextRange,
}

/// The parser of one worker description, `text[pos..end]`.
struct Description<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// A number out of range was reported: the description is no worker type.
    out_of_range: bool,
}

impl Description<'_> {
    /// The worker type, or `None` when the description has an error (already
    /// reported).
    fn parse(&mut self) -> Option<WorkerType> {
        let start = self.pos;
        let capabilities = self.capabilities()?;
        let capabilities_end = self.pos;
        let socket = if self.eat(b'#') {
            Some(self.count("socket", "a socket number after `#`")?)
        } else {
            None
        };
        let (mut per_node, mut max_nodes, mut shm, mut port) = (None, None, None, None);
        if self.eat(b':') {
            per_node = Some(self.count("PerNode", "a number after `:`")?);
            if self.eat(b'x') {
                max_nodes = Some(self.count("MaxNodes", "a number after `x`")?);
            }
            if self.eat(b',') {
                shm = Some(self.count("Shm", "a number after `,`")?);
            }
            if self.eat(b'/') {
                // Checked below against 65535 instead of 64 bits.
                port = Some(self.number("a port number after `/`")?);
            }
        }
        if self.pos < self.end {
            let expected = if port.is_some() {
                "whitespace"
            } else if shm.is_some() {
                "`/` or whitespace"
            } else if max_nodes.is_some() {
                "`,`, `/` or whitespace"
            } else if per_node.is_some() {
                "`x`, `,`, `/` or whitespace"
            } else if socket.is_some() {
                "`:` or whitespace"
            } else {
                "`+`, `#`, `:` or whitespace"
            };
            self.unexpected(expected);
            return None;
        }

        let name = &self.text[start..capabilities_end];
        let per_node_value = per_node.as_ref().map_or(Some(1), |n| n.value);
        let port_value = match &port {
            Some(port) => Some(self.check_port(name, port, per_node_value)?),
            None => None,
        };
        if self.out_of_range {
            return None;
        }
        let per_node_value = per_node_value.unwrap_or(1);
        if let (0, Some(per_node)) = (per_node_value, &per_node) {
            self.diagnostics.push(Diagnostic::new(
                Code::W0605,
                per_node.range,
                format!("worker type `{name}` has PerNode 0: it starts no worker"),
            ));
        }
        let range_of = |number: &Option<Number>| number.as_ref().map(|n| n.range);
        let field_ranges = FieldRanges {
            socket: range_of(&socket),
            per_node: range_of(&per_node),
            max_nodes: range_of(&max_nodes),
            shm: range_of(&shm),
            port: range_of(&port),
        };
        let value_of = |number: Option<Number>| number.and_then(|n| n.value);
        Some(WorkerType {
            capabilities,
            socket: value_of(socket),
            per_node: per_node_value,
            max_nodes: value_of(max_nodes).unwrap_or(0),
            shm: value_of(shm).unwrap_or(0),
            port: port_value,
            range: range(start, self.end),
            capabilities_range: range(start, capabilities_end),
            field_ranges,
            text: self.text[start..self.end].to_string(),
        })
    }

    /// `Capability { "+" Capability }`.
    fn capabilities(&mut self) -> Option<Vec<Capability>> {
        let mut capabilities = Vec::new();
        let mut expected = "a capability name";
        loop {
            let bytes = self.text.as_bytes();
            if self.pos >= self.end || !is_identifier_start(bytes[self.pos]) {
                self.unexpected(expected);
                return None;
            }
            let name_end = run_end(bytes, self.pos, self.end, is_identifier_continue);
            capabilities.push(Capability {
                name: self.text[self.pos..name_end].to_string(),
                range: range(self.pos, name_end),
            });
            self.pos = name_end;
            if !self.eat(b'+') {
                return Some(capabilities);
            }
            expected = "a capability name after `+`";
        }
    }

    /// Decimal digits; the value is `None` when it does not fit in 64 bits.
    fn number(&mut self, expected: &str) -> Option<Number> {
        let bytes = self.text.as_bytes();
        let digits_end = run_end(bytes, self.pos, self.end, |b| b.is_ascii_digit());
        if digits_end == self.pos {
            self.unexpected(expected);
            return None;
        }
        let value = bytes[self.pos..digits_end]
            .iter()
            .try_fold(0u64, |value, digit| {
                value.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
            });
        let number = Number {
            value,
            range: range(self.pos, digits_end),
        };
        self.pos = digits_end;
        Some(number)
    }

    /// A number that must fit in 64 bits (E0602 otherwise; parsing goes on,
    /// but the description is no worker type).
    fn count(&mut self, field: &str, expected: &str) -> Option<Number> {
        let number = self.number(expected)?;
        if number.value.is_none() {
            let digits = &self.text[number.range];
            self.diagnostics.push(Diagnostic::new(
                Code::E0602,
                number.range,
                format!("{field} `{digits}` does not fit in 64 bits"),
            ));
            self.out_of_range = true;
        }
        Some(number)
    }

    /// E0602 when the ports `port … port + PerNode − 1` go above 65535.
    fn check_port(&mut self, name: &str, port: &Number, per_node: Option<u64>) -> Option<u16> {
        let instances = u128::from(per_node.unwrap_or(1).max(1));
        let first = port.value.map(u128::from);
        let last = first.map(|first| first + instances - 1);
        if let (Some(first), Some(last)) = (first, last)
            && last <= u128::from(u16::MAX)
        {
            return u16::try_from(first).ok();
        }
        let written = &self.text[port.range];
        let message = match (first, last) {
            (Some(first), Some(last)) if last > first => {
                format!("ports {first}–{last} of worker type `{name}` go above 65535")
            }
            _ => format!("port {written} of worker type `{name}` is above 65535"),
        };
        self.diagnostics
            .push(Diagnostic::new(Code::E0602, port.range, message));
        None
    }

    fn eat(&mut self, byte: u8) -> bool {
        let matched = self.pos < self.end && self.text.as_bytes()[self.pos] == byte;
        if matched {
            self.pos += 1;
        }
        matched
    }

    /// E0601 at the current position; parsing resumes at the next whitespace.
    fn unexpected(&mut self, expected: &str) {
        let (range, found) = found(self.text, self.pos, self.end, END_OF_DESCRIPTION);
        let before = self.text[..self.pos].chars().next_back();
        let token = &self.text[range];
        // `compute + GPU`: the user may not know that spaces separate descriptions.
        let hint = if before.is_some_and(|c| c.is_ascii_whitespace())
            && self.text[self.pos..].starts_with(['+', '#', ':', ',', '/'])
        {
            " (whitespace ends a worker description)"
        } else if before.is_some_and(|c| c.is_ascii_digit()) && is_size_unit(token) {
            // `reduce:4,2GiB`: a habit from memory sizes elsewhere.
            " (numbers have no unit; Shm is in bytes)"
        } else {
            ""
        };
        self.diagnostics.push(Diagnostic::new(
            Code::E0601,
            range,
            format!("expected {expected}, found {found}{hint}"),
        ));
    }
}

fn is_size_unit(token: &str) -> bool {
    const UNITS: [&str; 13] = [
        "B", "K", "M", "G", "T", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB",
    ];
    UNITS.iter().any(|unit| unit.eq_ignore_ascii_case(token))
}

/// W0603: a later worker type with the capability set of an earlier one.
fn check_capability_sets(workers: &[WorkerType], diagnostics: &mut Vec<Diagnostic>) {
    let mut first_with_set: HashMap<BTreeSet<&str>, &WorkerType> = HashMap::new();
    for worker in workers {
        match first_with_set.get(&worker.capability_set()) {
            Some(first) => diagnostics.push(
                Diagnostic::new(
                    Code::W0603,
                    worker.capabilities_range,
                    format!(
                        "worker type `{}` has the same capability set as `{}`",
                        worker.name(),
                        first.name()
                    ),
                )
                .with_related(
                    first.capabilities_range,
                    format!("`{}` is described here", first.name()),
                ),
            ),
            None => {
                first_with_set.insert(worker.capability_set(), worker);
            }
        }
    }
}

/// E0604: a worker type whose ports overlap those of an earlier one (one
/// diagnostic per later type, against the first it overlaps).
fn check_port_overlaps(workers: &[WorkerType], diagnostics: &mut Vec<Diagnostic>) {
    let with_ports: Vec<(&WorkerType, (u16, u16), TextRange)> = workers
        .iter()
        .filter_map(|w| Some((w, w.port_range()?, w.field_ranges.port?)))
        .collect();
    for (i, &(worker, (first, last), port_range)) in with_ports.iter().enumerate() {
        let earlier = with_ports[..i]
            .iter()
            .find(|(_, (other_first, other_last), _)| first <= *other_last && *other_first <= last);
        if let Some(&(other, (other_first, other_last), other_range)) = earlier {
            let verb = if first == last { "overlaps" } else { "overlap" };
            diagnostics.push(
                Diagnostic::new(
                    Code::E0604,
                    port_range,
                    format!(
                        "{} of `{}` {verb} {} of `{}`",
                        ports(first, last),
                        worker.name(),
                        ports(other_first, other_last),
                        other.name()
                    ),
                )
                .with_related(
                    other_range,
                    format!("`{}` uses {}", other.name(), ports(other_first, other_last)),
                ),
            );
        }
    }
}

/// `port 9000` or `ports 9000–9023`.
fn ports(first: u16, last: u16) -> String {
    if first == last {
        format!("port {first}")
    } else {
        format!("ports {first}–{last}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example string of the GPI-Space documentation (the seed).
    const SEED_EXAMPLE: &str = "compute+CPU:24,1073741824 compute+GPU:2,1073741824 reduce:4,2147483648 IO+load:2,16777216 IO+store:2,16777216 init:1x1";

    fn codes(text: &str) -> Vec<(Code, String)> {
        parse(text)
            .diagnostics
            .into_iter()
            .map(|d| (d.code, d.message))
            .collect()
    }

    fn error(text: &str) -> String {
        let diagnostics = codes(text);
        assert_eq!(diagnostics.len(), 1, "{text:?}: {diagnostics:?}");
        diagnostics[0].1.clone()
    }

    #[test]
    fn seed_example_has_the_documented_worker_types() {
        let topology = parse(SEED_EXAMPLE);
        assert_eq!(topology.diagnostics, []);
        let summary: Vec<_> = topology
            .workers
            .iter()
            .map(|w| {
                let names: Vec<&str> = w.capabilities.iter().map(|c| c.name.as_str()).collect();
                (names, w.socket, w.per_node, w.max_nodes, w.shm, w.port)
            })
            .collect();
        assert_eq!(
            summary,
            [
                (vec!["compute", "CPU"], None, 24, 0, 1 << 30, None),
                (vec!["compute", "GPU"], None, 2, 0, 1 << 30, None),
                (vec!["reduce"], None, 4, 0, 2 << 30, None),
                (vec!["IO", "load"], None, 2, 0, 16 << 20, None),
                (vec!["IO", "store"], None, 2, 0, 16 << 20, None),
                (vec!["init"], None, 1, 1, 0, None),
            ]
        );
        assert_eq!(topology.to_gpispace(), SEED_EXAMPLE);
        assert_eq!(
            topology.capability_names(),
            [
                "compute", "CPU", "GPU", "reduce", "IO", "load", "store", "init"
            ]
        );
    }

    #[test]
    fn ranges_of_fields() {
        let text = "  a+b#1:2x3,4/5\n";
        let topology = parse(text);
        let w = &topology.workers[0];
        let at = |range: TextRange| &text[range];
        assert_eq!(at(w.range), "a+b#1:2x3,4/5");
        assert_eq!(w.name(), "a+b");
        assert_eq!(at(w.capabilities_range), "a+b");
        assert_eq!(at(w.capabilities[1].range), "b");
        let f = w.field_ranges;
        let fields = [f.socket, f.per_node, f.max_nodes, f.shm, f.port].map(|r| at(r.unwrap()));
        assert_eq!(fields, ["1", "2", "3", "4", "5"]);
        assert_eq!(
            (w.socket, w.per_node, w.max_nodes, w.shm, w.port),
            (Some(1), 2, 3, 4, Some(5))
        );
        assert_eq!(w.port_range(), Some((5, 6)));
        assert_eq!(w.slots(), Some(6));
        assert_eq!(topology.worker_at(4.into()).map(|w| w.name()), Some("a+b"));
        assert_eq!(topology.worker_at(0.into()), None);
    }

    #[test]
    fn defaults() {
        let w = &parse("solo").workers[0];
        assert_eq!(
            (w.socket, w.per_node, w.max_nodes, w.shm, w.port),
            (None, 1, 0, 0, None)
        );
        assert_eq!(w.field_ranges, FieldRanges::default());
        assert_eq!(w.slots(), None, "all machines: unbounded");
        assert_eq!(w.port_range(), None);
    }

    #[test]
    fn comments_and_separators() {
        let text = "\u{feff}// cluster\na:1 // compute\n\tb:2//x\r\nc//tail";
        let topology = parse(text);
        assert_eq!(topology.diagnostics, []);
        assert_eq!(topology.to_gpispace(), "a:1 b:2 c");
        assert_eq!(parse("").workers, []);
        assert_eq!(parse(" // only a comment").workers, []);
    }

    #[test]
    fn syntax_errors() {
        assert_eq!(
            error("compute+CPU:24,1073741824 compute+GPU:two,1073741824"),
            "expected a number after `:`, found `two`"
        );
        assert_eq!(
            error("compute+"),
            "expected a capability name after `+`, found the end of the worker description"
        );
        assert_eq!(
            error("compute + GPU"),
            "expected a capability name, found `+` (whitespace ends a worker description)"
        );
        assert_eq!(
            error("a:2,2GB"),
            "expected `/` or whitespace, found `GB` (numbers have no unit; Shm is in bytes)"
        );
        assert_eq!(
            error("a:2Gx"),
            "expected `x`, `,`, `/` or whitespace, found `Gx`"
        );
        assert_eq!(
            error("a-b"),
            "expected `+`, `#`, `:` or whitespace, found `-`"
        );
        assert_eq!(error("a#1x2"), "expected `:` or whitespace, found `x2`");
        assert_eq!(
            error("a:1x"),
            "expected a number after `x`, found the end of the worker description"
        );
        assert_eq!(
            error("a:1x1:2"),
            "expected `,`, `/` or whitespace, found `:`"
        );
        assert_eq!(error("a:1,5x1"), "expected `/` or whitespace, found `x1`");
        assert_eq!(error("a:1/9000/1"), "expected whitespace, found `/`");
        assert_eq!(error("2a"), "expected a capability name, found `2`");
        assert_eq!(error("шаг"), "expected a capability name, found `ш`");
        assert_eq!(
            error("a\u{a0}b"),
            "expected `+`, `#`, `:` or whitespace, found the character U+00A0"
        );
    }

    #[test]
    fn an_error_skips_to_the_next_whitespace() {
        let topology = parse("a:x,1+b c:2");
        assert_eq!(topology.diagnostics.len(), 1);
        let names: Vec<&str> = topology.workers.iter().map(|w| w.name()).collect();
        assert_eq!(names, ["c"]);
        let range = topology.diagnostics[0].range;
        assert_eq!(range, TextRange::new(2.into(), 3.into()));
    }

    #[test]
    fn numbers_out_of_range() {
        assert_eq!(
            error("a:18446744073709551616"),
            "PerNode `18446744073709551616` does not fit in 64 bits"
        );
        assert_eq!(codes("a:18446744073709551615"), []);
        assert_eq!(
            error("IO+load:2,16777216/65535"),
            "ports 65535–65536 of worker type `IO+load` go above 65535"
        );
        assert_eq!(codes("IO+load:2,16777216/65534"), []);
        assert_eq!(
            codes("a/65535").len(),
            1,
            "a port without `:` is a syntax error"
        );
        assert_eq!(codes("a:1/65535"), []);
        assert_eq!(
            error("a:1/65536"),
            "port 65536 of worker type `a` is above 65535"
        );
        assert_eq!(
            error("a:1/99999999999999999999999"),
            "port 99999999999999999999999 of worker type `a` is above 65535"
        );
        assert_eq!(
            codes("a:0/65535"),
            [(
                Code::W0605,
                "worker type `a` has PerNode 0: it starts no worker".into()
            )]
        );
        // Port 0 with 65536 instances ends exactly at 65535.
        assert_eq!(codes("a:65536/0"), []);
        let topology = parse("a:1x99999999999999999999,7 b:1");
        assert_eq!(
            topology.workers.len(),
            1,
            "an out-of-range description is no worker type"
        );
    }

    #[test]
    fn same_capability_sets() {
        let topology = parse("compute+GPU:2,1073741824 GPU+compute:4,2147483648 GPU+compute+GPU");
        let messages: Vec<&str> = topology
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "worker type `GPU+compute` has the same capability set as `compute+GPU`",
                "worker type `GPU+compute+GPU` has the same capability set as `compute+GPU`",
            ]
        );
        assert_eq!(
            topology.diagnostics[0].related[0].range,
            TextRange::new(0.into(), 11.into())
        );
        assert_eq!(codes("compute+GPU compute+GPU+bigmem"), []);
        assert_eq!(codes("gpu GPU"), [], "names are case-sensitive");
    }

    #[test]
    fn overlapping_ports() {
        assert_eq!(
            error("compute+CPU:24/9000 compute+GPU:2/9010"),
            "ports 9010–9011 of `compute+GPU` overlap ports 9000–9023 of `compute+CPU`"
        );
        assert_eq!(codes("compute+CPU:24/9000 compute+GPU:2/9024"), []);
        assert_eq!(
            parse("a:1/9000 c:1/9000").diagnostics[0].message,
            "port 9000 of `c` overlaps port 9000 of `a`"
        );
        // One diagnostic per later type, against the first it overlaps.
        let topology = parse("a:2/9000 b:2/9001 c:10/8995");
        let messages: Vec<&str> = topology
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "ports 9001–9002 of `b` overlap ports 9000–9001 of `a`",
                "ports 8995–9004 of `c` overlap ports 9000–9001 of `a`",
            ]
        );
        assert_eq!(
            codes("a:0/9000 b:1/9000").len(),
            1,
            "no ports without workers: only W0605"
        );
    }

    #[test]
    fn per_node_zero() {
        let topology = parse("compute+CPU:24 init:0");
        assert_eq!(
            topology.diagnostics[0].message,
            "worker type `init` has PerNode 0: it starts no worker"
        );
        assert_eq!(
            topology.diagnostics[0].range,
            TextRange::new(20.into(), 21.into())
        );
        assert_eq!(topology.workers.len(), 2, "kept, but never fits");
        assert_eq!(codes("compute+CPU:24 init:1x1"), []);
        assert_eq!(codes("init:00").len(), 1);
    }
}
