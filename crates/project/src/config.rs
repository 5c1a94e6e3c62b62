//! `easyflow.toml`, the project configuration (`config.md`): parsed with the
//! `toml` crate, keeping the spans of keys and values for diagnostics.

use easyflow_diagnostics::suggest::{closest, did_you_mean};
use easyflow_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use easyflow_fmt::Options as FormatOptions;
use toml::de::{DeTable, DeValue};

/// Name of the configuration file searched upwards from a flow.
pub const CONFIG_FILE_NAME: &str = "easyflow.toml";

/// A path written in the configuration, relative to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfiguredPath {
    pub path: String,
    /// The range of the value (the string literal).
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Config {
    pub topology: Option<ConfiguredPath>,
    pub catalog: Option<ConfiguredPath>,
    pub format_width: Option<i64>,
    pub format_indent: Option<i64>,
    /// E0901 (then the file is ignored as a whole) and W0902.
    pub diagnostics: Vec<Diagnostic>,
}

impl Config {
    /// The formatter's options from the `[format]` settings, the one place
    /// they are turned into them: a width under 1 counts as 1, an indent is
    /// kept within 0..=16, and an unusable file gives the defaults.
    pub fn format_options(&self) -> FormatOptions {
        let defaults = FormatOptions::default();
        if !self.is_usable() {
            return defaults;
        }
        FormatOptions {
            width: self
                .format_width
                .map_or(defaults.width, |w| w.clamp(1, 100_000) as usize),
            indent: self
                .format_indent
                .map_or(defaults.indent, |i| i.clamp(0, 16) as usize),
        }
    }

    /// False after E0901: the file is then ignored as a whole, and flows fall
    /// back to the next discovery rule.
    pub fn is_usable(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.code == Code::E0901)
    }
}

const TOP_LEVEL_KEYS: &[&str] = &["topology", "catalog", "format"];
const FORMAT_KEYS: &[&str] = &["width", "indent"];

fn range_of(span: std::ops::Range<usize>) -> TextRange {
    TextRange::new(
        TextSize::from(span.start as u32),
        TextSize::from(span.end as u32),
    )
}

/// Parses `easyflow.toml` text. Never fails: problems are diagnostics.
pub fn parse_config(text: &str) -> Config {
    let mut config = Config::default();
    let table = match DeTable::parse(text) {
        Ok(table) => table,
        Err(error) => {
            let span = error.span().unwrap_or(0..0);
            let end = span.end.min(text.len());
            let start = span.start.min(end);
            config.diagnostics.push(Diagnostic::new(
                Code::E0901,
                range_of(start..end),
                format!("invalid TOML: {}", error.message().trim()),
            ));
            return config;
        }
    };
    for (key, value) in table.get_ref() {
        let key_range = range_of(key.span());
        let value_range = range_of(value.span());
        match key.get_ref().as_ref() {
            "topology" => {
                config.topology = path_value(
                    value.get_ref(),
                    value_range,
                    "topology",
                    &mut config.diagnostics,
                )
            }
            "catalog" => {
                config.catalog = path_value(
                    value.get_ref(),
                    value_range,
                    "catalog",
                    &mut config.diagnostics,
                )
            }
            "format" => match value.get_ref() {
                DeValue::Table(format) => {
                    for (key, value) in format {
                        let value_range = range_of(value.span());
                        let target = match key.get_ref().as_ref() {
                            "width" => &mut config.format_width,
                            "indent" => &mut config.format_indent,
                            other => {
                                unknown_key(
                                    other,
                                    range_of(key.span()),
                                    FORMAT_KEYS,
                                    "[format]",
                                    &mut config.diagnostics,
                                );
                                continue;
                            }
                        };
                        match value.get_ref() {
                            DeValue::Integer(integer) => {
                                *target = integer.as_str().replace('_', "").parse().ok();
                            }
                            _ => wrong_type(
                                &format!("format.{}", key.get_ref()),
                                "an integer",
                                value_range,
                                &mut config.diagnostics,
                            ),
                        }
                    }
                }
                _ => wrong_type("format", "a table", value_range, &mut config.diagnostics),
            },
            other => unknown_key(
                other,
                key_range,
                TOP_LEVEL_KEYS,
                "the top level",
                &mut config.diagnostics,
            ),
        }
    }
    config
}

fn path_value(
    value: &DeValue<'_>,
    range: TextRange,
    key: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ConfiguredPath> {
    match value {
        DeValue::String(path) => Some(ConfiguredPath {
            path: path.to_string(),
            range,
        }),
        _ => {
            wrong_type(key, "a path string", range, diagnostics);
            None
        }
    }
}

fn wrong_type(key: &str, expected: &str, range: TextRange, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.push(Diagnostic::new(
        Code::E0901,
        range,
        format!("`{key}` must be {expected}; this file is ignored until it is fixed"),
    ));
}

fn unknown_key(
    key: &str,
    range: TextRange,
    known: &[&str],
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let suggestion = closest(key, known.iter().copied());
    diagnostics.push(Diagnostic::new(
        Code::W0902,
        range,
        format!(
            "unknown key `{key}` in {place}{}; known keys: {}",
            did_you_mean(suggestion),
            known.join(", ")
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_options_with_defaults_and_limits() {
        let options = |text: &str| parse_config(text).format_options();
        assert_eq!(
            options(""),
            FormatOptions {
                width: 100,
                indent: 2
            }
        );
        assert_eq!(
            options("[format]\nwidth = 80\n"),
            FormatOptions {
                width: 80,
                indent: 2
            }
        );
        assert_eq!(
            options("[format]\nwidth = 0\nindent = 99\n"),
            FormatOptions {
                width: 1,
                indent: 16
            }
        );
        assert_eq!(
            options("[format\nwidth = 80"),
            FormatOptions::default(),
            "E0901"
        );
    }

    #[test]
    fn reads_known_keys_with_ranges() {
        let text = "topology = \"cluster/site.topology\"\n[format]\nwidth = 100\nindent = 2\n";
        let config = parse_config(text);
        assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
        let topology = config.topology.unwrap();
        assert_eq!(topology.path, "cluster/site.topology");
        assert_eq!(&text[topology.range], "\"cluster/site.topology\"");
        assert_eq!(
            (config.format_width, config.format_indent),
            (Some(100), Some(2))
        );
    }

    #[test]
    fn unknown_keys_warn_and_bad_files_error() {
        let config = parse_config("topolgy = \"a\"\n");
        assert_eq!(config.diagnostics[0].code, Code::W0902);
        assert!(
            config.diagnostics[0]
                .message
                .contains("did you mean `topology`")
        );
        assert!(config.is_usable());
        let config = parse_config("topology = [1\n");
        assert_eq!(config.diagnostics[0].code, Code::E0901);
        assert!(!config.is_usable());
        let config = parse_config("topology = 3\n");
        assert_eq!(config.diagnostics[0].code, Code::E0901);
    }
}
