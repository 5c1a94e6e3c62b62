//! `easyflow.toml`, the project configuration (`config.md`): parsed with the
//! `toml` crate, keeping the spans of keys and values for diagnostics.

use easyflow_diagnostics::allow::{self, CodeLevels, Named};
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
    /// `[diagnostics] allow` and `deny`, without what W0904 reports.
    pub levels: CodeLevels,
    /// E0901 (then the file is ignored as a whole), W0902 and W0904.
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

    /// The levels `[diagnostics]` gives codes in the flows this file
    /// configures (`config.md`): none when the file is ignored.
    pub fn code_levels(&self) -> CodeLevels {
        match self.is_usable() {
            true => self.levels.clone(),
            false => CodeLevels::default(),
        }
    }

    /// False after E0901: the file is then ignored as a whole, and flows fall
    /// back to the next discovery rule.
    pub fn is_usable(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.code == Code::E0901)
    }
}

const TOP_LEVEL_KEYS: &[&str] = &["topology", "catalog", "format", "diagnostics"];
const FORMAT_KEYS: &[&str] = &["width", "indent"];
const DIAGNOSTICS_KEYS: &[&str] = &["allow", "deny"];

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
            "diagnostics" => match value.get_ref() {
                DeValue::Table(table) => {
                    config.levels = code_levels(table, &mut config.diagnostics);
                }
                _ => wrong_type(
                    "diagnostics",
                    "a table",
                    value_range,
                    &mut config.diagnostics,
                ),
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

/// A code of `[diagnostics] allow` or `deny` as written, with its range.
struct ListedCode<'a> {
    text: &'a str,
    range: TextRange,
}

/// The `[diagnostics]` table: its `allow` and `deny` lists, with W0904 on
/// each element that is no code, is an error's code, or is denied and
/// allowed at once (on the `deny` element; the code is then neither).
fn code_levels(table: &DeTable<'_>, diagnostics: &mut Vec<Diagnostic>) -> CodeLevels {
    let mut lists: [Vec<ListedCode>; 2] = [Vec::new(), Vec::new()];
    for (key, value) in table {
        let list = match key.get_ref().as_ref() {
            "allow" => &mut lists[0],
            "deny" => &mut lists[1],
            other => {
                unknown_key(
                    other,
                    range_of(key.span()),
                    DIAGNOSTICS_KEYS,
                    "[diagnostics]",
                    diagnostics,
                );
                continue;
            }
        };
        let name = format!("diagnostics.{}", key.get_ref());
        let DeValue::Array(elements) = value.get_ref() else {
            wrong_type(
                &name,
                "a list of codes",
                range_of(value.span()),
                diagnostics,
            );
            continue;
        };
        for element in elements {
            match element.get_ref() {
                DeValue::String(text) => list.push(ListedCode {
                    text: text.as_ref(),
                    range: range_of(element.span()),
                }),
                _ => wrong_type(
                    &name,
                    "a list of codes",
                    range_of(element.span()),
                    diagnostics,
                ),
            }
        }
    }
    let [allowed, denied] = lists.map(|list| {
        list.into_iter()
            .filter_map(|listed| match allow::named(listed.text) {
                Named::Silenceable(code) => Some((code, listed.range)),
                Named::Error(code) => {
                    diagnostics.push(Diagnostic::new(
                        Code::W0904,
                        listed.range,
                        format!("`{code}` is an error: errors can be neither allowed nor denied"),
                    ));
                    None
                }
                Named::Unknown { suggestion } => {
                    diagnostics.push(Diagnostic::new(
                        Code::W0904,
                        listed.range,
                        format!(
                            "unknown code `{}`{}",
                            listed.text,
                            did_you_mean(suggestion.map(Code::as_str))
                        ),
                    ));
                    None
                }
            })
            .collect::<Vec<_>>()
    });
    let mut reported = Vec::new();
    for &(code, range) in &denied {
        if allowed.iter().any(|(c, _)| *c == code) && !reported.contains(&code) {
            reported.push(code);
            diagnostics.push(Diagnostic::new(
                Code::W0904,
                range,
                format!(
                    "`{code}` is both allowed and denied, so it is neither; remove it from one list"
                ),
            ));
        }
    }
    CodeLevels::new(
        allowed.into_iter().map(|(code, _)| code),
        denied.into_iter().map(|(code, _)| code),
    )
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

    #[test]
    fn diagnostics_levels_with_w0904_on_each_element_that_cannot_be_one() {
        let text = "[diagnostics]\nallow = [\"W0206\", \"E0201\", \"w0405\", \"I0209\"]\ndeny = [\"W0405\", \"I0209\", \"X\"]\n";
        let config = parse_config(text);
        let found: Vec<(Code, &str, &str)> = config
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range], d.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    Code::W0904,
                    "\"E0201\"",
                    "`E0201` is an error: errors can be neither allowed nor denied"
                ),
                (
                    Code::W0904,
                    "\"w0405\"",
                    "unknown code `w0405` (did you mean `W0405`?)"
                ),
                (Code::W0904, "\"X\"", "unknown code `X`"),
                (
                    Code::W0904,
                    "\"I0209\"",
                    "`I0209` is both allowed and denied, so it is neither; remove it from one list"
                ),
            ]
        );
        let levels = config.code_levels();
        use easyflow_diagnostics::allow::Level;
        assert_eq!(levels.level(Code::W0206), Level::Allow);
        assert_eq!(levels.level(Code::W0405), Level::Deny);
        assert_eq!(levels.level(Code::I0209), Level::Default);
    }

    #[test]
    fn diagnostics_of_the_wrong_type_make_the_file_ignored() {
        for text in [
            "[diagnostics]\nallow = \"W0206\"\n",
            "[diagnostics]\nallow = [1]\n",
            "diagnostics = 3\n",
        ] {
            let config = parse_config(text);
            assert_eq!(config.diagnostics[0].code, Code::E0901, "{text}");
            assert!(config.code_levels().is_default(), "{text}");
        }
        let config = parse_config("topology = 3\n[diagnostics]\nallow = [\"W0206\"]\n");
        assert!(!config.is_usable());
        assert!(config.code_levels().is_default());
        let config = parse_config("[diagnostics]\nalow = [\"W0206\"]\n");
        assert_eq!(config.diagnostics[0].code, Code::W0902);
        assert!(
            config.diagnostics[0]
                .message
                .contains("did you mean `allow`")
        );
    }
}
