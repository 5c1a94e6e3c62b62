//! The catalog model: packages, their parameters and outputs, with where
//! each is written in the catalog file.

use std::collections::{HashMap, HashSet};
use std::fmt;

use easyflow_diagnostics::{Diagnostic, TextRange};

/// A parsed catalog file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Catalog {
    /// The valid packages, in the order of the file (a package whose name
    /// repeats an earlier one's is left out).
    pub packages: Vec<Package>,
    /// E0810, sorted by range start.
    pub diagnostics: Vec<Diagnostic>,
    /// Index into `packages` by name.
    by_name: HashMap<String, usize>,
    /// The first segments of the package names (`ORCA` of `ORCA.DFT`).
    heads: HashSet<String>,
    /// False when the file could not be read as TOML at all (bad syntax, not
    /// UTF-8): then flows are checked as with no catalog.
    readable: bool,
}

impl Catalog {
    pub(crate) fn new(packages: Vec<Package>, diagnostics: Vec<Diagnostic>) -> Catalog {
        let by_name = packages
            .iter()
            .enumerate()
            .map(|(i, package)| (package.name.clone(), i))
            .collect();
        let heads = packages
            .iter()
            .filter_map(|p| p.name.split('.').next())
            .map(str::to_string)
            .collect();
        Catalog {
            packages,
            diagnostics,
            by_name,
            heads,
            readable: true,
        }
    }

    /// A file that could not be read as TOML at all: its one diagnostic.
    pub(crate) fn unreadable(diagnostic: Diagnostic) -> Catalog {
        Catalog {
            readable: false,
            ..Catalog::new(Vec::new(), vec![diagnostic])
        }
    }

    /// Whether flows are checked against it (`catalog.md`: a file that cannot
    /// be read as TOML at all leaves them as with no catalog).
    pub fn is_usable(&self) -> bool {
        self.readable
    }

    /// The package of this compound name.
    pub fn package(&self, name: &str) -> Option<&Package> {
        self.by_name.get(name).map(|&i| &self.packages[i])
    }

    /// Whether `name` is the first segment of a package's name (`ORCA` of
    /// `ORCA.DFT`, or all of `Pkg1`): a reference starting with it names a
    /// package (`language.md` §3.1).
    pub fn is_package_head(&self, name: &str) -> bool {
        self.heads.contains(name)
    }

    pub fn package_names(&self) -> impl Iterator<Item = &str> {
        self.packages.iter().map(|p| p.name.as_str())
    }
}

/// One `[[package]]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Package {
    /// The whole `[[package]]` table, its parameters and outputs included.
    pub range: TextRange,
    /// The compound name written after `runs`, e.g. `ORCA.DFT`.
    pub name: String,
    /// The `name` value in the catalog.
    pub name_range: TextRange,
    pub description: Option<String>,
    /// The default `requires` (capability names), for the topology fit.
    pub requires: Option<Requirement<Vec<String>>>,
    /// The default `memory` per instance, in bytes, for the topology fit.
    pub memory: Option<Requirement<u64>>,
    /// The parameters, in the order of the file (a repeated name is left out).
    pub params: Vec<Param>,
    /// The declared outputs; empty when the package declares none.
    pub outputs: Vec<Output>,
    /// How it runs (`[package.run]`, `run.md` §1); `None` when the catalog
    /// does not say, or its `command` is in error.
    pub run: Option<Run>,
}

/// `[package.run]`: how one instance of the package runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Run {
    /// The program and its first arguments (argv, never through a shell).
    pub command: Vec<String>,
    /// The container image, used only when running with containers.
    pub container: Option<String>,
    /// CPU cores per instance.
    pub cores: Option<u64>,
}

/// A default requirement of a package: its value and how it was written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Requirement<T> {
    pub value: T,
    pub text: String,
}

impl Package {
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The parameters in the order editors list them: required ones first,
    /// each group in the order of the catalog.
    pub fn params_required_first(&self) -> impl Iterator<Item = &Param> {
        let required = self.params.iter().filter(|p| p.is_required());
        required.chain(self.params.iter().filter(|p| !p.is_required()))
    }
}

/// One `[[package.param]]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    /// The whole `[[package.param]]` table.
    pub range: TextRange,
    pub name: String,
    pub name_range: TextRange,
    /// `None` when the `type` is missing or unknown.
    pub ty: Option<ParamType>,
    pub required: bool,
    pub min: Option<Number>,
    pub max: Option<Number>,
    /// An Enum's values.
    pub values: Vec<String>,
    /// The default as written in TOML (`"B3LYP"`, `4`, `true`).
    pub default: Option<String>,
    pub description: Option<String>,
    /// False when the catalog has an error in this parameter (E0810): it is
    /// known by name, but its values are not checked and it is never missing.
    pub checked: bool,
    /// Its place among the positional arguments of the command line.
    pub position: Option<u64>,
    /// Written before its value on the command line, as set in the catalog
    /// (see [`Param::command_line_prefix`] for the default).
    pub prefix: Option<String>,
}

impl Param {
    /// Required, and checked (an erroneous parameter is never missing).
    pub fn is_required(&self) -> bool {
        self.required && self.checked
    }

    /// The type as editors show it: `Int`, `Enum`, or `?` when unknown.
    pub fn type_name(&self) -> &'static str {
        self.ty.map_or("?", ParamType::as_str)
    }

    /// The allowed range or values, when there are any: `-10..=10`,
    /// `≥ 0`, `"B3LYP" | "PBE0"`.
    pub fn range_text(&self) -> Option<String> {
        if !self.values.is_empty() {
            let values: Vec<String> = self.values.iter().map(|v| format!("{v:?}")).collect();
            return Some(values.join(" | "));
        }
        match (&self.min, &self.max) {
            (Some(min), Some(max)) => Some(format!("{min}..={max}")),
            (Some(min), None) => Some(format!("≥ {min}")),
            (None, Some(max)) => Some(format!("≤ {max}")),
            (None, None) => None,
        }
    }

    /// What the command line writes before the value (`run.md` §2): the
    /// `prefix` as set; without one, nothing for a positional parameter and
    /// `--NAME` for the others.
    pub fn command_line_prefix(&self) -> Option<String> {
        match (&self.prefix, self.position) {
            (Some(prefix), _) => Some(prefix.clone()),
            (None, Some(_)) => None,
            (None, None) => Some(format!("--{}", self.name)),
        }
    }

    /// `name: Int (-10..=10)`, how completion and signature help show it.
    pub fn label(&self) -> String {
        let mut label = format!("{}: {}", self.name, self.type_name());
        if let Some(range) = self.range_text() {
            label.push_str(&format!(" ({range})"));
        }
        label
    }
}

/// One `[[package.output]]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Output {
    /// The whole `[[package.output]]` table.
    pub range: TextRange,
    pub name: String,
    pub name_range: TextRange,
    pub description: Option<String>,
    /// The file collected from the working directory, as set in the
    /// catalog (see [`Output::file_pattern`] for the default).
    pub glob: Option<String>,
}

impl Output {
    /// The file collected from an instance's working directory: the `glob`,
    /// else the output's name.
    pub fn file_pattern(&self) -> &str {
        self.glob.as_deref().unwrap_or(&self.name)
    }
}

/// A parameter's declared type (`catalog.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    File,
    String,
    Int,
    Double,
    Bool,
    List,
    Enum,
}

impl ParamType {
    pub const ALL: [ParamType; 7] = [
        ParamType::File,
        ParamType::String,
        ParamType::Int,
        ParamType::Double,
        ParamType::Bool,
        ParamType::List,
        ParamType::Enum,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::File => "File",
            ParamType::String => "String",
            ParamType::Int => "Int",
            ParamType::Double => "Double",
            ParamType::Bool => "Bool",
            ParamType::List => "List",
            ParamType::Enum => "Enum",
        }
    }

    pub fn from_name(name: &str) -> Option<ParamType> {
        ParamType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Whether `min`/`max` apply.
    pub fn is_numeric(self) -> bool {
        matches!(self, ParamType::Int | ParamType::Double)
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A bound or a number: an integer, or a double compared by value (equal
/// and hashed by its bits, so a catalog can be compared for backdating).
#[derive(Debug, Clone, Copy)]
pub enum Number {
    Int(i64),
    Double(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Double(d) => d,
        }
    }

    /// `self < other` by value (integers exactly).
    pub fn less_than(self, other: Number) -> bool {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => a < b,
            _ => self.as_f64() < other.as_f64(),
        }
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => a == b,
            (Number::Double(a), Number::Double(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

impl Eq for Number {}

impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Number::Int(i) => (0u8, *i).hash(state),
            Number::Double(d) => (1u8, d.to_bits()).hash(state),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Double(d) => write!(f, "{d:?}"),
        }
    }
}
