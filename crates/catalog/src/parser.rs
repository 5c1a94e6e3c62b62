//! Reads `easyflow-packages.toml` with the `toml` crate, keeping spans, into
//! a [`Catalog`]: every valid package, and one E0810 per problem at the
//! range `catalog.md` gives for it.

use std::ops::Range;

use easyflow_diagnostics::suggest::{closest, did_you_mean};
use easyflow_diagnostics::{Code, Diagnostic, TextRange, TextSize};
use easyflow_syntax::value::{Literal, LiteralValue, Reference, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::check::{ValueProblem, check_value};
use crate::model::{Catalog, Number, Output, Package, Param, ParamType, Requirement, Run};

const TOP_LEVEL_KEYS: &[&str] = &["package"];
const PACKAGE_KEYS: &[&str] = &[
    "name",
    "description",
    "requires",
    "memory",
    "param",
    "output",
    "run",
];
const PARAM_KEYS: &[&str] = &[
    "name",
    "type",
    "required",
    "min",
    "max",
    "values",
    "default",
    "description",
    "position",
    "prefix",
];
const OUTPUT_KEYS: &[&str] = &["name", "description", "glob"];
const RUN_KEYS: &[&str] = &["command", "container", "cores"];

/// Reads a catalog file's bytes: one that is not UTF-8 is one E0810 at the
/// start of the file, and no packages.
pub fn parse_bytes(bytes: &[u8]) -> Catalog {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(error) => Catalog::unreadable(Diagnostic::new(
            Code::E0810,
            TextRange::empty(TextSize::from(0)),
            format!(
                "the package catalog is not valid UTF-8 (invalid byte at offset {}); no package of it is known",
                error.valid_up_to()
            ),
        )),
    }
}

/// Reads a catalog file's text. Never fails: problems are E0810 diagnostics,
/// and the valid part is kept (`catalog.md`, "Errors in the catalog file").
pub fn parse(text: &str) -> Catalog {
    let mut reader = Reader {
        text,
        diagnostics: Vec::new(),
    };
    let packages = match DeTable::parse(text) {
        Ok(table) => reader.catalog(table.get_ref()),
        Err(error) => {
            let span = error.span().unwrap_or(0..0);
            reader.error(span, format!("invalid TOML: {}", error.message().trim()));
            let diagnostic = reader.diagnostics.remove(0);
            return Catalog::unreadable(diagnostic);
        }
    };
    let mut diagnostics = reader.diagnostics;
    easyflow_diagnostics::sort(&mut diagnostics);
    Catalog::new(packages, diagnostics)
}

struct Reader<'t> {
    text: &'t str,
    diagnostics: Vec<Diagnostic>,
}

/// A string value with its range.
type Located = (String, TextRange);

impl Reader<'_> {
    fn range(&self, span: Range<usize>) -> TextRange {
        let end = span.end.min(self.text.len());
        let mut start = span.start.min(end);
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = end;
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
    }

    fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        let range = self.range(span);
        self.diagnostics
            .push(Diagnostic::new(Code::E0810, range, message));
    }

    fn unknown_key(
        &mut self,
        key: &Spanned<std::borrow::Cow<'_, str>>,
        known: &[&str],
        place: &str,
    ) {
        let name = key.get_ref().as_ref();
        let suggestion = closest(name, known.iter().copied());
        self.error(
            key.span(),
            format!(
                "unknown key `{name}` in {place}{}; known keys: {}",
                did_you_mean(suggestion),
                known.join(", ")
            ),
        );
    }

    fn wrong_type(&mut self, value: &Spanned<DeValue<'_>>, key: &str, expected: &str) {
        self.error(
            value.span(),
            format!(
                "`{key}` must be {expected}, found {}",
                value.get_ref().type_str()
            ),
        );
    }

    fn string(&mut self, value: &Spanned<DeValue<'_>>, key: &str) -> Option<Located> {
        match value.get_ref() {
            DeValue::String(s) => Some((s.to_string(), self.range(value.span()))),
            _ => {
                self.wrong_type(value, key, "a string");
                None
            }
        }
    }

    /// A string that must not be empty (`prefix`, `glob`).
    fn non_empty_string(&mut self, value: &Spanned<DeValue<'_>>, key: &str) -> Option<String> {
        let (text, range) = self.string(value, key)?;
        if text.is_empty() {
            self.diagnostics.push(Diagnostic::new(
                Code::E0810,
                range,
                format!("`{key}` must not be empty"),
            ));
            return None;
        }
        Some(text)
    }

    /// The tables of an array of tables (`[[package]]`, `[[package.param]]`).
    fn tables<'a, 'i>(
        &mut self,
        value: &'a Spanned<DeValue<'i>>,
        key: &str,
    ) -> Vec<(&'a DeTable<'i>, Range<usize>)> {
        match value.get_ref() {
            DeValue::Array(array) => array
                .iter()
                .filter_map(|item| match item.get_ref() {
                    DeValue::Table(table) => Some((table, item.span())),
                    _ => {
                        self.wrong_type(item, key, &format!("a table (`[[{key}]]`)"));
                        None
                    }
                })
                .collect(),
            _ => {
                self.wrong_type(value, key, &format!("an array of tables (`[[{key}]]`)"));
                Vec::new()
            }
        }
    }

    fn catalog(&mut self, table: &DeTable<'_>) -> Vec<Package> {
        let mut packages: Vec<Package> = Vec::new();
        for (key, value) in table {
            if key.get_ref() != "package" {
                self.unknown_key(key, TOP_LEVEL_KEYS, "the top level");
                continue;
            }
            for (table, span) in self.tables(value, "package") {
                let Some(package) = self.package(table, span) else {
                    continue;
                };
                if let Some(first) = packages.iter().find(|p| p.name == package.name) {
                    let first = first.name_range;
                    let message = format!(
                        "package `{}` is defined twice; the first definition stands",
                        package.name
                    );
                    self.diagnostics.push(
                        Diagnostic::new(Code::E0810, package.name_range, message)
                            .with_related(first, "first defined here"),
                    );
                    continue;
                }
                packages.push(package);
            }
        }
        packages
    }

    fn package(&mut self, table: &DeTable<'_>, span: Range<usize>) -> Option<Package> {
        let mut name = None;
        let mut description = None;
        let mut requires = None;
        let mut memory = None;
        let mut param_tables = Vec::new();
        let mut output_tables = Vec::new();
        let mut run = None;
        for (key, value) in table {
            match key.get_ref().as_ref() {
                "name" => name = Some(self.string(value, "name")),
                "description" => description = self.string(value, "description").map(|s| s.0),
                "requires" => requires = self.requires(value),
                "memory" => memory = self.memory(value),
                "run" => run = self.run(value),
                "param" => param_tables = self.tables(value, "package.param"),
                "output" => output_tables = self.tables(value, "package.output"),
                _ => self.unknown_key(key, PACKAGE_KEYS, "a package"),
            }
        }
        let (name, name_range) = match name {
            Some(Some(name)) => name,
            // Written, but not a string: already reported.
            Some(None) => return None,
            None => {
                self.error(span, "a package needs a `name`; this one is ignored");
                return None;
            }
        };
        let mut params: Vec<Param> = Vec::new();
        for (table, span) in param_tables {
            let Some(param) = self.param(table, span) else {
                continue;
            };
            if let Some(first) = params.iter().find(|p| p.name == param.name) {
                let first = first.name_range;
                let message = format!(
                    "package `{name}` has two parameters `{}`; the first stands",
                    param.name
                );
                self.diagnostics.push(
                    Diagnostic::new(Code::E0810, param.name_range, message)
                        .with_related(first, "first declared here"),
                );
                continue;
            }
            params.push(param);
        }
        let mut outputs: Vec<Output> = Vec::new();
        for (table, span) in output_tables {
            let Some(output) = self.output(table, span) else {
                continue;
            };
            if let Some(first) = outputs.iter().find(|o| o.name == output.name) {
                let first = first.name_range;
                let message = format!(
                    "package `{name}` declares the output `{}` twice; the first stands",
                    output.name
                );
                self.diagnostics.push(
                    Diagnostic::new(Code::E0810, output.name_range, message)
                        .with_related(first, "first declared here"),
                );
                continue;
            }
            outputs.push(output);
        }
        Some(Package {
            range: self.range(extent(table, span)),
            name,
            name_range,
            description,
            requires,
            memory,
            params,
            outputs,
            run,
        })
    }

    /// `[package.run]` (`run.md` §1): `None` when it is not a table or its
    /// `command` is absent or in error; a bad `container` or `cores` is
    /// left out.
    fn run(&mut self, value: &Spanned<DeValue<'_>>) -> Option<Run> {
        let DeValue::Table(table) = value.get_ref() else {
            self.wrong_type(value, "run", "a table (`[package.run]`)");
            return None;
        };
        let mut command = None;
        let mut container = None;
        let mut cores = None;
        for (key, value) in table {
            match key.get_ref().as_ref() {
                "command" => command = Some(self.command(value)),
                "container" => container = self.string(value, "container").map(|s| s.0),
                "cores" => match number(value.get_ref()) {
                    Some(Number::Int(n))
                        if n >= 1 && matches!(value.get_ref(), DeValue::Integer(_)) =>
                    {
                        cores = Some(n as u64)
                    }
                    _ => self.error(
                        value.span(),
                        "`cores` must be an integer of at least 1 (CPU cores per instance)",
                    ),
                },
                _ => self.unknown_key(key, RUN_KEYS, "`[package.run]`"),
            }
        }
        let command = match command {
            Some(command) => command?,
            None => {
                self.error(
                    value.span(),
                    "`[package.run]` needs a `command`, the program and its first arguments as a list of strings",
                );
                return None;
            }
        };
        Some(Run {
            command,
            container,
            cores,
        })
    }

    /// `command = ["prog", "arg", …]`: a non-empty list of strings.
    fn command(&mut self, value: &Spanned<DeValue<'_>>) -> Option<Vec<String>> {
        let DeValue::Array(items) = value.get_ref() else {
            self.wrong_type(
                value,
                "command",
                "a list of strings (`[\"program\", \"argument\"]`)",
            );
            return None;
        };
        if items.is_empty() {
            self.error(
                value.span(),
                "`command` is empty: it needs at least the program to run",
            );
            return None;
        }
        let mut command = Vec::with_capacity(items.len());
        let mut valid = true;
        for item in items.iter() {
            match item.get_ref() {
                DeValue::String(s) => command.push(s.to_string()),
                _ => {
                    self.wrong_type(item, "command", "a list of strings");
                    valid = false;
                }
            }
        }
        valid.then_some(command)
    }

    /// `requires = "compute+CPU"`: a capability set in topology syntax.
    fn requires(&mut self, value: &Spanned<DeValue<'_>>) -> Option<Requirement<Vec<String>>> {
        let (text, _) = self.string(value, "requires")?;
        match easyflow_topology::parse_capability_set(&text) {
            Ok(capabilities) => Some(Requirement {
                value: capabilities.into_iter().map(|c| c.name).collect(),
                text,
            }),
            Err(error) => {
                self.error(value.span(), format!("`requires`: {}", error.message));
                None
            }
        }
    }

    /// `memory = "1GiB"` or a number of bytes.
    fn memory(&mut self, value: &Spanned<DeValue<'_>>) -> Option<Requirement<u64>> {
        match value.get_ref() {
            DeValue::Integer(_) => match number(value.get_ref()) {
                Some(Number::Int(bytes)) if bytes >= 0 => Some(Requirement {
                    value: bytes as u64,
                    text: bytes.to_string(),
                }),
                _ => {
                    self.error(value.span(), "`memory` must be a size in bytes (0 or more)");
                    None
                }
            },
            DeValue::String(text) => match easyflow_topology::parse_memory(text) {
                Ok(bytes) => Some(Requirement {
                    value: bytes,
                    text: text.to_string(),
                }),
                Err(error) => {
                    self.error(value.span(), format!("`memory`: {}", error.message));
                    None
                }
            },
            _ => {
                self.wrong_type(value, "memory", "a size (`\"1GiB\"` or a number of bytes)");
                None
            }
        }
    }

    fn output(&mut self, table: &DeTable<'_>, span: Range<usize>) -> Option<Output> {
        let mut name = None;
        let mut description = None;
        let mut glob = None;
        for (key, value) in table {
            match key.get_ref().as_ref() {
                "name" => name = Some(self.string(value, "name")),
                "description" => description = self.string(value, "description").map(|s| s.0),
                "glob" => glob = self.non_empty_string(value, "glob"),
                _ => self.unknown_key(key, OUTPUT_KEYS, "an output"),
            }
        }
        let (name, name_range) = match name {
            Some(Some(name)) => name,
            // Written, but not a string: already reported.
            Some(None) => return None,
            None => {
                self.error(span, "an output needs a `name`; this one is ignored");
                return None;
            }
        };
        Some(Output {
            range: self.range(extent(table, span)),
            name,
            name_range,
            description,
            glob,
        })
    }

    fn param(&mut self, table: &DeTable<'_>, span: Range<usize>) -> Option<Param> {
        let mut name = None;
        let mut ty = None;
        let mut required = None;
        let mut min = None;
        let mut max = None;
        let mut values = None;
        let mut default = None;
        let mut description = None;
        let mut position = None;
        let mut prefix = None;
        for (key, value) in table {
            match key.get_ref().as_ref() {
                "name" => name = Some(self.string(value, "name")),
                "type" => ty = Some(value),
                "required" => required = Some(value),
                "min" => min = Some(value),
                "max" => max = Some(value),
                "values" => values = Some(value),
                "default" => default = Some(value),
                "description" => description = self.string(value, "description").map(|s| s.0),
                "position" => position = Some(value),
                "prefix" => prefix = Some(value),
                _ => self.unknown_key(key, PARAM_KEYS, "a parameter"),
            }
        }
        let (name, name_range) = match name {
            Some(Some(name)) => name,
            // Written, but not a string: already reported.
            Some(None) => return None,
            None => {
                self.error(span, "a parameter needs a `name`; this one is ignored");
                return None;
            }
        };
        let mut param = Param {
            range: self.range(extent(table, span.clone())),
            name,
            name_range,
            ty: None,
            required: false,
            min: None,
            max: None,
            values: Vec::new(),
            default: None,
            description,
            checked: true,
            position: None,
            prefix: None,
        };
        // Each problem below makes the parameter unchecked (`catalog.md`):
        // known by name, any value accepted, never missing.
        match ty {
            None => {
                self.error(
                    name_range_span(name_range),
                    format!("parameter `{}` has no `type`", param.name),
                );
                param.checked = false;
            }
            Some(value) => match value.get_ref() {
                DeValue::String(t) => match ParamType::from_name(t) {
                    Some(t) => param.ty = Some(t),
                    None => {
                        let known: Vec<&str> = ParamType::ALL.iter().map(|t| t.as_str()).collect();
                        let suggestion = closest(t, known.iter().copied());
                        self.error(
                            value.span(),
                            format!(
                                "unknown parameter type `{t}`{}: expected File, String, Int, Double, Bool, List or Enum",
                                did_you_mean(suggestion)
                            ),
                        );
                        param.checked = false;
                    }
                },
                _ => {
                    self.wrong_type(value, "type", "a string");
                    param.checked = false;
                }
            },
        }
        if let Some(value) = required {
            match value.get_ref() {
                DeValue::Boolean(b) => param.required = *b,
                _ => {
                    self.wrong_type(value, "required", "`true` or `false`");
                    param.checked = false;
                }
            }
        }
        for (value, key) in [(min, "min"), (max, "max")] {
            let Some(value) = value else { continue };
            let Some(n) = number(value.get_ref()) else {
                self.wrong_type(value, key, "a number");
                param.checked = false;
                continue;
            };
            if param.ty.is_some_and(|t| !t.is_numeric()) {
                self.error(
                    value.span(),
                    format!(
                        "`{key}` applies to Int and Double parameters, and `{}` is {}",
                        param.name,
                        param.type_name()
                    ),
                );
                param.checked = false;
                continue;
            }
            if key == "min" {
                param.min = Some(n);
            } else {
                param.max = Some(n);
            }
        }
        if let (Some(min), Some(max), Some(value)) = (param.min, param.max, max)
            && max.less_than(min)
        {
            self.error(
                value.span(),
                format!("`max` ({max}) is less than `min` ({min})"),
            );
            param.checked = false;
        }
        if let Some(value) = values {
            match value.get_ref() {
                DeValue::Array(items) if param.ty == Some(ParamType::Enum) => {
                    for item in items.iter() {
                        match item.get_ref() {
                            DeValue::String(s) => param.values.push(s.to_string()),
                            _ => {
                                self.wrong_type(item, "values", "strings");
                                param.checked = false;
                            }
                        }
                    }
                }
                DeValue::Array(_) => {
                    if param.ty.is_some() {
                        self.error(
                            value.span(),
                            format!(
                                "`values` applies to Enum parameters, and `{}` is {}",
                                param.name,
                                param.type_name()
                            ),
                        );
                        param.checked = false;
                    }
                }
                _ => {
                    self.wrong_type(value, "values", "an array of strings");
                    param.checked = false;
                }
            }
        }
        if param.ty == Some(ParamType::Enum)
            && param.values.is_empty()
            && let Some(ty) = ty
        {
            self.error(
                ty.span(),
                format!(
                    "Enum parameter `{}` needs `values`, the list of its allowed values",
                    param.name
                ),
            );
            param.checked = false;
        }
        if let Some(value) = position {
            match (value.get_ref(), number(value.get_ref())) {
                (DeValue::Integer(_), Some(Number::Int(n))) if n >= 0 => {
                    param.position = Some(n as u64)
                }
                _ => {
                    self.error(
                        value.span(),
                        "`position` must be an integer of 0 or more (its place among the positional arguments)",
                    );
                    param.checked = false;
                }
            }
        }
        if let Some(value) = prefix {
            match self.non_empty_string(value, "prefix") {
                Some(text) => param.prefix = Some(text),
                None => param.checked = false,
            }
        }
        if let Some(value) = default {
            param.default = Some(written(self.text, value));
            if param.checked
                && param.ty.is_some()
                && let Some(problem) = self.default_problem(&param, value.get_ref())
            {
                self.error(value.span(), format!("default: {}", problem.message));
                param.checked = false;
            }
        }
        Some(param)
    }

    /// Whether a default is a value the parameter accepts (a File's default
    /// is a path string).
    fn default_problem(&self, param: &Param, value: &DeValue<'_>) -> Option<ValueProblem> {
        let value = match value {
            DeValue::String(s) if param.ty == Some(ParamType::File) => {
                Value::Ref(Box::new(Reference::bare(s)))
            }
            other => flow_value(other),
        };
        check_value(param, &value)
    }
}

/// The span of a name's range, for an error about its parameter as a whole.
fn name_range_span(range: TextRange) -> Range<usize> {
    usize::from(range.start())..usize::from(range.end())
}

/// A TOML value as written in the file.
fn written(text: &str, value: &Spanned<DeValue<'_>>) -> String {
    let span = value.span();
    text.get(span.clone())
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:?}", value.get_ref()))
}

fn number(value: &DeValue<'_>) -> Option<Number> {
    match value {
        DeValue::Integer(integer) => {
            let digits = integer.as_str().replace('_', "");
            i64::from_str_radix(&digits, integer.radix())
                .ok()
                .map(Number::Int)
        }
        DeValue::Float(float) => float
            .as_str()
            .replace('_', "")
            .parse::<f64>()
            .ok()
            .filter(|f| !f.is_nan())
            .map(Number::Double),
        _ => None,
    }
}

/// A TOML value as the value a flow would give.
fn flow_value(value: &DeValue<'_>) -> Value {
    let literal = |kind, text: String| {
        Value::Literal(Literal {
            kind,
            text: text.into(),
        })
    };
    match value {
        DeValue::String(s) => literal(LiteralValue::String(s.to_string()), format!("{s:?}")),
        DeValue::Integer(_) => match number(value) {
            Some(Number::Int(i)) => literal(LiteralValue::Int(i), i.to_string()),
            _ => Value::Invalid,
        },
        DeValue::Float(f) => literal(LiteralValue::Double, f.as_str().replace('_', "")),
        DeValue::Boolean(b) => literal(LiteralValue::Bool(*b), b.to_string()),
        DeValue::Array(items) => {
            Value::List(items.iter().map(|i| flow_value(i.get_ref())).collect())
        }
        _ => Value::Invalid,
    }
}

/// The text of an array-of-tables element (`[[package]]` and what follows
/// it): the header's `span` up to the end of the last key or value in the
/// table, nested tables included (a TOML parser spans only the header).
fn extent(table: &DeTable<'_>, span: Range<usize>) -> Range<usize> {
    fn value_end(value: &Spanned<DeValue<'_>>) -> usize {
        let end = value.span().end;
        match value.get_ref() {
            DeValue::Table(table) => end.max(table_end(table)),
            DeValue::Array(items) => items.iter().map(value_end).fold(end, usize::max),
            _ => end,
        }
    }
    fn table_end(table: &DeTable<'_>) -> usize {
        table
            .iter()
            .map(|(key, value)| key.span().end.max(value_end(value)))
            .max()
            .unwrap_or(0)
    }
    span.start..span.end.max(table_end(table))
}
