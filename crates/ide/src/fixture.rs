//! Test fixtures: a flow with the cursor marked `$0` (and, where a test needs
//! a range, a second `$0`).

use easyflow_db::{CatalogFile, Database, SourceFile, TopologyFile};

use easyflow_diagnostics::{TextRange, TextSize};

/// A package catalog for the tests of the features that read one.
pub(crate) const CATALOG: &str = r#"
[[package]]
name = "ORCA.DFT"
description = "Geometry optimization by density functional theory"
requires = "compute+CPU"
memory = "1GiB"

  [[package.param]]
  name = "input"
  type = "File"
  required = true
  description = "Molecule in XYZ format"

  [[package.param]]
  name = "method"
  type = "Enum"
  values = ["B3LYP", "PBE0"]
  default = "B3LYP"

  [[package.param]]
  name = "charge"
  type = "Int"
  min = -10
  max = 10
  required = true

  [[package.output]]
  name = "geometry.xyz"

[[package]]
name = "Vis.Mesh"

  [[package.param]]
  name = "data"
  type = "File"
  required = true
"#;

pub(crate) struct Fixture {
    pub db: Database,
    pub file: SourceFile,
    /// The first `$0`.
    pub offset: TextSize,
    /// From the first `$0` to the second, if there are two.
    pub range: Option<TextRange>,
    pub text: String,
}

/// Parses `text` with its `$0` markers removed.
pub(crate) fn fixture(text: &str) -> Fixture {
    with_topology(text, None)
}

/// Like [`fixture`], with a topology for the fit check.
pub(crate) fn with_topology(text: &str, topology: Option<&str>) -> Fixture {
    with_project(text, topology, None)
}

/// Like [`fixture`], with a package catalog.
pub(crate) fn with_catalog(text: &str, catalog: &str) -> Fixture {
    with_project(text, None, Some(catalog))
}

pub(crate) fn with_project(text: &str, topology: Option<&str>, catalog: Option<&str>) -> Fixture {
    let markers: Vec<usize> = text.match_indices("$0").map(|(i, _)| i).collect();
    let clean = text.replace("$0", "");
    let at = |n: usize| TextSize::from((markers[n] - 2 * n) as u32);
    let offset = if markers.is_empty() {
        TextSize::from(0)
    } else {
        at(0)
    };
    let range = (markers.len() >= 2).then(|| TextRange::new(at(0), at(1)));
    let db = Database::default();
    let topology =
        topology.map(|t| TopologyFile::new(&db, "cluster.topology".into(), t.to_string()));
    let catalog = catalog
        .map(|c| CatalogFile::new(&db, "easyflow-packages.toml".into(), c.as_bytes().to_vec()));
    let file = SourceFile::builder("test.flow".into(), clean.as_str().into())
        .topology(topology)
        .catalog(catalog)
        .new(&db);
    Fixture {
        db,
        file,
        offset,
        range,
        text: clean,
    }
}

pub(crate) use crate::apply_edits as apply;
