//! The exports of `exports.md` and `run.md`: an [`ExpandedWorkflow`]
//! written as DIET MA DAG XML, the formal workload description's JSON, the
//! workflow DAG model's JSON, or a CWL v1.2 document. Each writer is a view of the model: the names are resolved,
//! the sweeps expanded and the order fixed by the database
//! (`easyflow_db::workflow`), so the same flow gives the same bytes.
//!
//! Deciding whether a flow may be exported (no errors, no id collision, and
//! the format's own [`Format::refusals`]) is the host's business
//! (`easyflow_ide::export`); the writers write any model they are given.

mod cwl;
mod diet;
mod model;
mod workload;

use std::fmt;
use std::io::{self, Write};

use easyflow_db::ExpandedWorkflow;
use easyflow_syntax::value::{LiteralValue, Value};
use rayon::prelude::*;
use serde::{Serialize, Serializer};
use serde_json::ser::Formatter;

/// An export format: its name, what editors show of it, and its writer.
/// Every list of formats (the CLI's `--to`, the server's `easyflow/export`
/// and the formats it announces to editors, the tests) is [`FORMATS`].
#[derive(Debug, Clone, Copy)]
pub struct Format {
    /// What `easyflow export --to` and `easyflow/export` take.
    pub name: &'static str,
    /// Its name in editors' pickers.
    pub label: &'static str,
    /// What it is for, beside the label.
    pub description: &'static str,
    /// The language of the text (`xml`, `json`), for editors.
    pub language: &'static str,
    /// Appended to the flow's name without `.flow` when an export is saved
    /// (`pipeline.diet.xml`).
    pub suffix: &'static str,
    /// Writes the document as it goes (no tree or text of the whole
    /// document: a 100k-step flow's is a hundred megabytes and more).
    writer: fn(&ExpandedWorkflow, &mut dyn Write) -> io::Result<()>,
    /// Why this format cannot carry a workflow, beyond the reasons every
    /// format shares (errors, id collisions); empty when it can.
    refusals: fn(&ExpandedWorkflow) -> Vec<String>,
    /// What the export does differently than the flow says, one line each.
    notes: fn(&ExpandedWorkflow) -> Vec<String>,
}

/// The export formats, in the order editors offer them. Adding a format is
/// one entry here, with its writer (a module beside `diet.rs`).
pub const FORMATS: &[Format] = &[
    Format {
        name: "diet",
        label: "DIET MA DAG (XML)",
        description: "for DIET's workflow scheduler",
        language: "xml",
        suffix: ".diet.xml",
        writer: diet::write,
        refusals: no_reasons,
        notes: no_reasons,
    },
    Format {
        name: "workload",
        label: "Workload description (JSON)",
        description: "one task per step, with cardinality and relations",
        language: "json",
        suffix: ".workload.json",
        writer: workload::write,
        refusals: no_reasons,
        notes: no_reasons,
    },
    Format {
        name: "model",
        label: "Workflow DAG model (JSON)",
        description: "jobs per instance, files, hosts, edges",
        language: "json",
        suffix: ".model.json",
        writer: model::write,
        refusals: no_reasons,
        notes: no_reasons,
    },
    CWL,
];

/// The CWL export, which `easyflow run` hands to the engines.
pub const CWL: Format = Format {
    name: "cwl",
    label: "CWL v1.2 workflow (JSON)",
    description: "runs on cwltool or Toil (easyflow run)",
    language: "json",
    suffix: ".cwl",
    writer: cwl::write,
    refusals: cwl::refusals,
    notes: cwl::notes,
};

/// The refusals or notes of a format that has none.
fn no_reasons(_: &ExpandedWorkflow) -> Vec<String> {
    Vec::new()
}

impl Format {
    /// The format called `name`.
    pub fn named(name: &str) -> Option<&'static Format> {
        FORMATS.iter().find(|f| f.name == name)
    }

    /// The workflow in this format, ending with a newline.
    pub fn write(&self, workflow: &ExpandedWorkflow) -> String {
        let mut bytes = Vec::new();
        self.write_to(workflow, &mut bytes)
            .expect("writing to memory cannot fail");
        String::from_utf8(bytes).expect("the writers write UTF-8")
    }

    /// [`Format::write`] into `out` as the document is made, through a
    /// buffer of its own (`out` need not be buffered).
    pub fn write_to(&self, workflow: &ExpandedWorkflow, out: &mut dyn Write) -> io::Result<()> {
        let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
        (self.writer)(workflow, &mut buffered)?;
        buffered.flush()
    }

    /// Why this format cannot carry `workflow` (see [`Format::write`]'s
    /// callers: a host refuses the export when this is not empty).
    pub fn refusals(&self, workflow: &ExpandedWorkflow) -> Vec<String> {
        (self.refusals)(workflow)
    }

    /// What the export of `workflow` does differently than the flow says.
    pub fn notes(&self, workflow: &ExpandedWorkflow) -> Vec<String> {
        (self.notes)(workflow)
    }
}

/// Formats are told apart by name.
impl PartialEq for Format {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Format {}

/// Pretty JSON (two-space indentation) and a final newline, written as
/// `document` is serialized.
fn write_json(document: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, document).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// How many items (steps, edges) one task renders into one buffer.
const BATCH: usize = 128;

/// How many batches are rendered on every core before they are written
/// in order: the text held at once is this many batches', never the
/// document's.
const WINDOW: usize = 32;

/// Renders `items` in batches on every core (`render` writes a batch's
/// text into a buffer of its own), handing the buffers to `write` in the
/// items' order, a window of batches at a time. The writers' text is most
/// of an export's time, and each step's or edge's text depends only on
/// the model, so it divides.
fn render_in_batches<T: Sync>(
    items: &[T],
    render: impl Fn(&[T], &mut Vec<u8>) -> io::Result<()> + Sync,
    mut write: impl FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<()> {
    // The same buffers for every window: memory the allocator gave back
    // would be faulted in again.
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for window in items.chunks(BATCH * WINDOW) {
        let batches = window.len().div_ceil(BATCH);
        if buffers.len() < batches {
            buffers.resize_with(batches, Vec::new);
        }
        window
            .par_chunks(BATCH)
            .zip(buffers[..batches].par_iter_mut())
            .try_for_each(|(batch, buffer)| {
                buffer.clear();
                render(batch, buffer)
            })?;
        for buffer in &buffers[..batches] {
            write(buffer)?;
        }
    }
    Ok(())
}

/// A pretty JSON object (two-space indentation, as
/// `serde_json::to_writer_pretty`) whose fields are arrays, each array's
/// elements rendered on every core ([`render_in_batches`]); the same bytes
/// as serializing the whole object at once.
struct JsonDocument<'o> {
    out: &'o mut dyn Write,
    fields: usize,
}

impl<'o> JsonDocument<'o> {
    fn new(out: &'o mut dyn Write) -> io::Result<JsonDocument<'o>> {
        out.write_all(b"{")?;
        Ok(JsonDocument { out, fields: 0 })
    }

    /// The field `key` (a plain name), an array of what `parts` adds.
    fn array(
        &mut self,
        key: &str,
        parts: impl FnOnce(&mut JsonArray<'_>) -> io::Result<()>,
    ) -> io::Result<()> {
        let separator: &[u8] = if self.fields == 0 {
            b"\n  \""
        } else {
            b",\n  \""
        };
        self.out.write_all(separator)?;
        self.out.write_all(key.as_bytes())?;
        self.out.write_all(b"\": [")?;
        self.fields += 1;
        let mut array = JsonArray {
            out: &mut *self.out,
            empty: true,
        };
        parts(&mut array)?;
        let end: &[u8] = if array.empty { b"]" } else { b"\n  ]" };
        self.out.write_all(end)
    }

    /// The end of the object, and a final newline.
    fn end(self) -> io::Result<()> {
        let end: &[u8] = if self.fields == 0 { b"}\n" } else { b"\n}\n" };
        self.out.write_all(end)
    }
}

/// The elements of one of a [`JsonDocument`]'s arrays, as they are added.
struct JsonArray<'o> {
    out: &'o mut dyn Write,
    empty: bool,
}

impl JsonArray<'_> {
    /// The elements `render` adds for each of `items`, in order, rendered
    /// on every core.
    fn extend<T: Sync>(
        &mut self,
        items: &[T],
        render: impl Fn(&T, &mut JsonElements<'_>) -> io::Result<()> + Sync,
    ) -> io::Result<()> {
        let JsonArray { out, empty } = self;
        render_in_batches(
            items,
            |batch, buffer| {
                let mut elements = JsonElements(buffer);
                batch
                    .iter()
                    .try_for_each(|item| render(item, &mut elements))
            },
            |text| {
                // Each element follows `,`, but the array's first.
                let text = match text.split_first() {
                    Some((_, rest)) if *empty => rest,
                    _ => text,
                };
                *empty &= text.is_empty();
                out.write_all(text)
            },
        )
    }
}

/// A batch's elements of a [`JsonDocument`]'s array, each after `,`, a
/// newline and the indentation of the array's elements.
struct JsonElements<'b>(&'b mut Vec<u8>);

impl JsonElements<'_> {
    fn push(&mut self, element: &impl Serialize) -> io::Result<()> {
        self.0.extend_from_slice(b",\n    ");
        // Inside the document's object and one of its arrays.
        let formatter = Pretty {
            level: 2,
            has_value: false,
        };
        element
            .serialize(&mut serde_json::Serializer::with_formatter(
                &mut *self.0,
                formatter,
            ))
            .map_err(io::Error::from)
    }
}

/// serde_json's `PrettyFormatter` with two-space indentation (the same
/// bytes), writing a line break and its indentation at once rather than
/// one write per level: most of the exports' JSON text is indentation.
struct Pretty {
    level: usize,
    has_value: bool,
}

impl Pretty {
    /// `,` unless `first`, a line break, and the indentation of `level`.
    fn line<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        const LINE: &[u8] = b",\n                                ";
        let start = usize::from(first);
        match LINE.get(start..2 + 2 * self.level) {
            Some(line) => writer.write_all(line),
            None => {
                writer.write_all(&LINE[start..2])?;
                (0..self.level).try_for_each(|_| writer.write_all(b"  "))
            }
        }
    }

    fn begin<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(writer, true)?;
        }
        writer.write_all(bracket)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.begin(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.end(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// A sequence written from an iterator made when it is serialized.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A string written piece by piece (`#main/STEP/ID`), without building it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Concat<'a, const N: usize>([&'a str; N]);

impl<const N: usize> fmt::Display for Concat<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|piece| f.write_str(piece))
    }
}

impl<const N: usize> Serialize for Concat<'_, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A value's EasyFlow text as a JSON string, written without being made
/// first ([`Value::text`] is a `String` each).
struct Text<'a>(&'a Value);

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// A JSON object whose keys come from the flow (parameters, attributes),
/// in the order first inserted; inserting a key again replaces its value
/// where it stands, as a JSON map does. Small: one step's or instance's.
struct Entries<'a, V>(Vec<(&'a str, V)>);

impl<'a, V> Entries<'a, V> {
    fn insert(&mut self, key: &'a str, value: V) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.0.push((key, value)),
        }
    }
}

impl<V: Serialize> Serialize for Entries<'_, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// A value as it reads outside EasyFlow: a string's content, a constant's
/// name, anything else as EasyFlow text.
fn plain_text(value: &Value) -> String {
    match value {
        Value::Literal(literal) => match &literal.kind {
            LiteralValue::String(content) => content.clone(),
            LiteralValue::Constant(name) => name.clone(),
            _ => literal.text.to_string(),
        },
        other => other.text(),
    }
}
