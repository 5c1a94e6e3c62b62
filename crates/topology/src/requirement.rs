//! The values of a step's `requires` and `memory` attributes (topology.md §3).

use std::fmt;

use easyflow_diagnostics::TextRange;

use crate::model::Capability;
use crate::text::{found, is_identifier_continue, is_identifier_start, range, run_end};

/// Why a `requires` or `memory` value cannot be read: a message to complete
/// "… expects …" (E0706), and the part of the value at fault (byte offsets
/// in the string given).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RequirementError {
    pub message: String,
    pub range: TextRange,
}

impl fmt::Display for RequirementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RequirementError {}

const END_OF_STRING: &str = "the end of the string";

/// Whether `name` is a capability name (a C identifier), for the list form
/// `requires = ["compute", "GPU"]`.
pub fn is_capability_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(|&b| is_identifier_start(b))
        && bytes.iter().all(|&b| is_identifier_continue(b))
}

/// Reads a capability set in topology syntax, `compute+GPU`, into its names
/// with their ranges inside `text`. Lenient: whitespace around names is
/// allowed (`compute + GPU`), since the meaning is plain.
pub fn parse_capability_set(text: &str) -> Result<Vec<Capability>, RequirementError> {
    let bytes = text.as_bytes();
    let skip_whitespace =
        |pos: usize| run_end(bytes, pos, bytes.len(), |b| b.is_ascii_whitespace());
    let mut capabilities = Vec::new();
    let mut pos = skip_whitespace(0);
    let mut expected = "a capability name";
    loop {
        if pos >= bytes.len() || !is_identifier_start(bytes[pos]) {
            let at_end = if text.trim().is_empty() {
                "an empty string"
            } else {
                END_OF_STRING
            };
            return Err(unexpected(text, pos, expected, at_end));
        }
        let name_end = run_end(bytes, pos, bytes.len(), is_identifier_continue);
        capabilities.push(Capability {
            name: text[pos..name_end].to_string(),
            range: range(pos, name_end),
        });
        pos = skip_whitespace(name_end);
        if pos >= bytes.len() {
            return Ok(capabilities);
        }
        if bytes[pos] != b'+' {
            return Err(unexpected(
                text,
                pos,
                "`+` between capabilities",
                END_OF_STRING,
            ));
        }
        pos = skip_whitespace(pos + 1);
        expected = "a capability name after `+`";
    }
}

fn unexpected(text: &str, pos: usize, expected: &str, at_end: &str) -> RequirementError {
    let (range, found) = found(text, pos, text.len(), at_end);
    RequirementError {
        message: format!("expected {expected}, found {found}"),
        range,
    }
}

/// The units of `memory` strings, with their factors.
const UNITS: [(&str, u64); 9] = [
    ("B", 1),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
    ("KB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
];

/// Reads a memory size: digits with an optional unit, `"512MiB"`, `"2GB"`,
/// `"4096"` (bytes). KiB/MiB/GiB/TiB are powers of 1024, KB/MB/GB/TB powers
/// of 1000, `B` is bytes.
///
/// Lenient where the meaning is unambiguous: surrounding whitespace and
/// whitespace between the number and the unit are allowed (`"1 GiB"`), and
/// the case of the unit does not matter (`"1gib"`, `"16mb"`: bits make no
/// sense for memory). A one-letter unit (`"1G"`) is rejected, since it could
/// be either power; so are fractions and signs.
pub fn parse_memory(text: &str) -> Result<u64, RequirementError> {
    let bytes = text.as_bytes();
    let start = run_end(bytes, 0, bytes.len(), |b| b.is_ascii_whitespace());
    let digits_end = run_end(bytes, start, bytes.len(), |b| b.is_ascii_digit());
    let end = text.trim_end().len().max(digits_end);
    if digits_end == start {
        let at_end = if start >= end {
            "an empty string"
        } else {
            END_OF_STRING
        };
        let (range, found) = found(text, start, end, at_end);
        return Err(RequirementError {
            message: format!("expected a number of bytes, found {found}"),
            range,
        });
    }
    let unit_start = run_end(bytes, digits_end, end, |b| b.is_ascii_whitespace());
    let unit = &text[unit_start..end];
    let factor = if unit.is_empty() {
        1
    } else {
        match UNITS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(unit))
        {
            Some(&(_, factor)) => factor,
            None => return Err(unknown_unit(text, unit_start, end)),
        }
    };
    let digits = &text[start..digits_end];
    digits
        .parse::<u64>()
        .ok()
        .and_then(|value| value.checked_mul(factor))
        .ok_or_else(|| RequirementError {
            message: format!("`{}` does not fit in 64 bits", text[start..end].trim()),
            range: range(start, end),
        })
}

fn unknown_unit(text: &str, start: usize, end: usize) -> RequirementError {
    let unit = &text[start..end];
    let message = match unit.to_ascii_uppercase().as_str() {
        letter @ ("K" | "M" | "G" | "T") => format!(
            "the unit `{unit}` is ambiguous: write `{letter}iB` (powers of 1024) or `{letter}B` (powers of 1000)"
        ),
        _ if unit.starts_with(['.', ',']) => {
            "fractions are not allowed: write a whole number in a smaller unit, e.g. `1536MiB` rather than `1.5GiB`".to_string()
        }
        _ => {
            let (_, found) = found(text, start, end, END_OF_STRING);
            format!(
                "expected a unit (KiB, MiB, GiB, TiB, KB, MB, GB, TB or B), found {}",
                if unit.is_ascii() && !unit.contains('`') {
                    format!("`{unit}`")
                } else {
                    found
                }
            )
        }
    };
    RequirementError {
        message,
        range: range(start, end),
    }
}

/// A size for people: in the largest unit that divides it exactly, e.g. `1 GiB`, `16 MiB`, `1500 KB`, `1234567 B`.
pub fn format_bytes(bytes: u64) -> String {
    let mut best = (bytes, "B");
    for (name, factor) in UNITS.iter().skip(1).rev() {
        if bytes >= *factor && bytes.is_multiple_of(*factor) && bytes / factor < best.0 {
            best = (bytes / factor, name);
        }
    }
    format!("{} {}", best.0, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, std::ops::Range<u32>)> {
        parse_capability_set(text)
            .unwrap()
            .into_iter()
            .map(|c| (c.name, c.range.start().into()..c.range.end().into()))
            .collect()
    }

    fn error(text: &str) -> String {
        parse_capability_set(text).unwrap_err().message
    }

    #[test]
    fn capability_sets_with_ranges() {
        assert_eq!(
            names("compute+GPU"),
            [("compute".into(), 0..7), ("GPU".into(), 8..11)]
        );
        assert_eq!(names("init"), [("init".into(), 0..4)]);
        assert_eq!(
            names(" compute + GPU_2 "),
            [("compute".into(), 1..8), ("GPU_2".into(), 11..16)]
        );
        assert_eq!(names("a+a").len(), 2, "repetition is kept");
    }

    #[test]
    fn malformed_capability_sets() {
        assert_eq!(
            error(""),
            "expected a capability name, found an empty string"
        );
        assert_eq!(
            error("  "),
            "expected a capability name, found an empty string"
        );
        assert_eq!(
            error("compute+"),
            "expected a capability name after `+`, found the end of the string"
        );
        assert_eq!(
            error("compute GPU"),
            "expected `+` between capabilities, found `GPU`"
        );
        assert_eq!(
            error("compute,GPU"),
            "expected `+` between capabilities, found `,`"
        );
        assert_eq!(error("2GPU"), "expected a capability name, found `2`");
        assert_eq!(error("+GPU"), "expected a capability name, found `+`");
        let range = parse_capability_set("compute+GPU!").unwrap_err().range;
        assert_eq!(range, TextRange::new(11.into(), 12.into()));
    }

    #[test]
    fn capability_names() {
        assert!(is_capability_name("GPU"));
        assert!(is_capability_name("_io2"));
        assert!(!is_capability_name(""));
        assert!(!is_capability_name("2x"));
        assert!(!is_capability_name("a+b"));
        assert!(!is_capability_name("шаг"));
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("4096"), Ok(4096));
        assert_eq!(parse_memory("512MiB"), Ok(512 << 20));
        assert_eq!(parse_memory("1GiB"), Ok(1 << 30));
        assert_eq!(parse_memory("16MB"), Ok(16_000_000));
        assert_eq!(parse_memory("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_memory("3KiB"), Ok(3072));
        assert_eq!(parse_memory("3KB"), Ok(3000));
        assert_eq!(parse_memory("1TiB"), Ok(1 << 40));
        assert_eq!(parse_memory("1TB"), Ok(1_000_000_000_000));
        assert_eq!(parse_memory("7B"), Ok(7));
        assert_eq!(parse_memory("0"), Ok(0));
        assert_eq!(parse_memory("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn memory_leniency() {
        assert_eq!(parse_memory("1 GiB"), Ok(1 << 30));
        assert_eq!(parse_memory(" 1GiB "), Ok(1 << 30));
        assert_eq!(parse_memory("1gib"), Ok(1 << 30));
        assert_eq!(parse_memory("16mb"), Ok(16_000_000));
        assert_eq!(parse_memory("2kB"), Ok(2000));
    }

    #[test]
    fn malformed_memory() {
        let message = |text| parse_memory(text).unwrap_err().message;
        assert_eq!(
            message("1G"),
            "the unit `G` is ambiguous: write `GiB` (powers of 1024) or `GB` (powers of 1000)"
        );
        assert_eq!(
            message("1k"),
            "the unit `k` is ambiguous: write `KiB` (powers of 1024) or `KB` (powers of 1000)"
        );
        assert_eq!(
            message(""),
            "expected a number of bytes, found an empty string"
        );
        assert_eq!(message("GiB"), "expected a number of bytes, found `GiB`");
        assert_eq!(message("-1"), "expected a number of bytes, found `-`");
        assert_eq!(
            message("1.5GiB"),
            "fractions are not allowed: write a whole number in a smaller unit, e.g. `1536MiB` rather than `1.5GiB`"
        );
        assert_eq!(
            message("1PiB"),
            "expected a unit (KiB, MiB, GiB, TiB, KB, MB, GB, TB or B), found `PiB`"
        );
        assert_eq!(
            message("1 GiB 2"),
            "expected a unit (KiB, MiB, GiB, TiB, KB, MB, GB, TB or B), found `GiB 2`"
        );
        assert_eq!(
            message("18446744073709551616"),
            "`18446744073709551616` does not fit in 64 bits"
        );
        assert_eq!(
            message("17179869184GiB"),
            "`17179869184GiB` does not fit in 64 bits"
        );
        let range = parse_memory(" 12 XB").unwrap_err().range;
        assert_eq!(range, TextRange::new(4.into(), 6.into()));
    }

    #[test]
    fn readable_sizes() {
        assert_eq!(format_bytes(0), "0 B");
        assert_eq!(format_bytes(1 << 30), "1 GiB");
        assert_eq!(format_bytes(2147483648), "2 GiB");
        assert_eq!(format_bytes(16777216), "16 MiB");
        assert_eq!(format_bytes(1536 << 20), "1536 MiB");
        assert_eq!(format_bytes(1_500_000), "1500 KB");
        assert_eq!(format_bytes(2_000_000_000), "2 GB");
        assert_eq!(format_bytes(1234567), "1234567 B");
        assert_eq!(format_bytes(1024), "1 KiB");
    }
}
