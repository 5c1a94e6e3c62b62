//! `--to diet`: DIET's MA DAG XML (`exports.md`), written with quick-xml so
//! that every attribute value is escaped by the writer.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use easyflow_db::ExpandedWorkflow;
use easyflow_db::workflow::{Instance, RefTarget, WorkflowStep};
use easyflow_syntax::value::{LiteralValue, Value};

use crate::render_in_batches;
use quick_xml::Writer;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;

pub(crate) fn write(workflow: &ExpandedWorkflow, out: &mut dyn Write) -> io::Result<()> {
    let mut xml = Xml(Writer::new_with_indent(out, b' ', 2));
    xml.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    xml.event(Event::Start(BytesStart::new("dag")))?;
    // The nodes, rendered on every core; each batch's writer starts where
    // this one stands, inside `<dag>`.
    render_in_batches(
        &workflow.steps,
        |steps, buffer| {
            let mut xml = Xml(Writer::new_with_indent(buffer, b' ', 2));
            xml.event(Event::Start(BytesStart::new("dag")))?;
            xml.0.get_mut().clear();
            let mut elements = Elements::default();
            for step in steps {
                for instance in &step.instances {
                    node(&mut xml, &mut elements, workflow, step, instance)?;
                }
            }
            Ok(())
        },
        |nodes| xml.0.get_mut().write_all(nodes),
    )?;
    xml.event(Event::End(BytesEnd::new("dag")))?;
    xml.0.into_inner().write_all(b"\n")
}

/// The writer, writing each element as it comes.
struct Xml<W>(Writer<W>);

impl<W: Write> Xml<W> {
    fn event(&mut self, event: Event<'_>) -> io::Result<()> {
        self.0.write_event(event)
    }

    /// An element without children, its start reused (`element` holds its
    /// name, and the attributes of the last one written).
    fn empty(
        &mut self,
        element: &mut BytesStart<'_>,
        attributes: &[(&str, &str)],
    ) -> io::Result<()> {
        element.clear_attributes();
        for (key, value) in attributes {
            element.push_attribute(attribute(key, value));
        }
        self.event(Event::Empty(element.borrow()))
    }

    fn comment(&mut self, text: &str) -> io::Result<()> {
        self.event(Event::Comment(BytesText::from_escaped(comment_text(text))))
    }
}

/// The starts of the elements a node holds, one of each name, reused from
/// node to node so that their attributes are written into the same buffer.
struct Elements {
    node: BytesStart<'static>,
    arg: BytesStart<'static>,
    input: BytesStart<'static>,
    output: BytesStart<'static>,
    prec: BytesStart<'static>,
    /// A port's name and source (`node#output`), made here.
    name: String,
    source: String,
}

impl Default for Elements {
    fn default() -> Elements {
        let start = |name: &str| {
            let mut content = String::with_capacity(256);
            content.push_str(name);
            BytesStart::from_content(content, name.len())
        };
        Elements {
            node: start("node"),
            arg: start("arg"),
            input: start("in"),
            output: start("out"),
            prec: start("prec"),
            name: String::new(),
            source: String::new(),
        }
    }
}

/// An attribute whose value quick-xml escapes (`&`, `<`, `>`, `"`, `'`),
/// with control characters as character references too, since a raw tab or
/// newline in an attribute would be read back as a space. The C0 controls
/// XML 1.0 cannot hold at all, even as references (all but tab, newline and
/// carriage return), become U+FFFD.
fn attribute<'a>(key: &'a str, value: &'a str) -> Attribute<'a> {
    if !value.bytes().any(|b| MAY_NEED_ESCAPING[usize::from(b)]) {
        // The common case: nothing to escape or replace.
        return Attribute {
            key: QName(key.as_bytes()),
            value: Cow::Borrowed(value.as_bytes()),
        };
    }
    let escaped = quick_xml::escape::escape(value);
    // Control characters (`char::is_control`) are the bytes below a space,
    // DEL, and U+0080 to U+009F, which begin with 0xC2: most values have
    // none of those bytes, and their characters need not be decoded.
    let may_hold_controls = escaped.bytes().any(|b| b < b' ' || b == 0x7f || b == 0xc2);
    let value = if may_hold_controls && escaped.chars().any(char::is_control) {
        let mut out = String::with_capacity(escaped.len() + 8);
        for c in escaped.chars() {
            match c {
                '\t' | '\n' | '\r' => out.push_str(&format!("&#x{:X};", c as u32)),
                c if c < ' ' => out.push('\u{FFFD}'),
                c if c.is_control() => out.push_str(&format!("&#x{:X};", c as u32)),
                c => out.push(c),
            }
        }
        Cow::Owned(out.into_bytes())
    } else {
        // The common case: nothing to replace, often nothing to escape.
        match escaped {
            Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
            Cow::Owned(text) => Cow::Owned(text.into_bytes()),
        }
    };
    Attribute {
        key: QName(key.as_bytes()),
        value,
    }
}

/// The bytes that quick-xml escapes in an attribute (`&`, `<`, `>`, `"`,
/// `'`), and those that may begin a control character (below a space,
/// DEL, and 0xC2, which begins U+0080 to U+009F).
static MAY_NEED_ESCAPING: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(
            byte as u8,
            b'&' | b'<' | b'>' | b'"' | b'\'' | 0..=0x1f | 0x7f | 0xc2
        );
        byte += 1;
    }
    table
};

/// A comment's text: ` text `, with `--` (which would end it) broken up
/// and characters XML cannot hold replaced.
fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(' ');
    for c in text.chars() {
        let c = match c {
            '\t' | '\n' | '\r' => c,
            c if c.is_control() => '\u{FFFD}',
            c => c,
        };
        if c == '-' && out.ends_with('-') {
            out.push(' ');
        }
        out.push(c);
    }
    if out.ends_with('-') {
        out.push(' ');
    }
    out.push(' ');
    out
}

fn node<W: Write>(
    xml: &mut Xml<W>,
    elements: &mut Elements,
    workflow: &ExpandedWorkflow,
    step: &WorkflowStep,
    instance: &Instance,
) -> io::Result<()> {
    let start = &mut elements.node;
    start.clear_attributes();
    start.push_attribute(attribute("id", &instance.id));
    start.push_attribute(attribute("path", &step.package));
    if step.params.is_empty()
        && step.outputs_read.is_empty()
        && step.depends_on.is_empty()
        && step.placement.requires.is_none()
        && step.placement.memory_bytes.is_none()
    {
        return xml.event(Event::Empty(start.borrow()));
    }
    xml.event(Event::Start(start.borrow()))?;

    let placement = &step.placement;
    let mut requirement = Vec::new();
    if let Some(requires) = &placement.requires {
        requirement.push(format!("requires: {requires}"));
    }
    if let Some(memory) = placement.memory_bytes {
        requirement.push(format!("memory: {memory} bytes"));
    }
    if !requirement.is_empty() {
        xml.comment(&requirement.join(", "))?;
    }

    // The steps this node reads from, by instance id, to leave out their `<prec>`.
    let mut read_from: Vec<&str> = Vec::new();
    for (param, value) in step.params.iter().zip(step.values(instance)) {
        if param.stream {
            xml.comment(&format!(
                "stream: {} <- {} (DIET has no streams; written as an input)",
                param.name,
                value.text()
            ))?;
        }
        let references = value.references();
        let reads_a_step = references
            .iter()
            .any(|r| matches!(workflow.target(r), RefTarget::Step(_)));
        if !reads_a_step {
            let (kind, text) = arg(workflow, value);
            xml.empty(
                &mut elements.arg,
                &[("name", &param.name), ("type", kind), ("value", &text)],
            )?;
            continue;
        }
        // One port per (reference, producer instance); a lone port keeps the
        // parameter's name, several are `param_0`, `param_1`, ….
        let mut ports: Vec<Port> = Vec::new();
        for reference in references {
            match workflow.target(reference) {
                RefTarget::Step(producer) => {
                    for source in &workflow.steps[producer as usize].instances {
                        read_from.push(&source.id);
                        ports.push(Port::In(&source.id, &reference.output));
                    }
                }
                RefTarget::File => ports.push(Port::File(&reference.head)),
                RefTarget::Other => {}
            }
        }
        let single = ports.len() == 1;
        let Elements {
            arg: arg_element,
            input,
            name,
            source,
            ..
        } = elements;
        for (i, port) in ports.iter().enumerate() {
            name.clear();
            name.push_str(&param.name);
            if !single {
                let _ = write!(name, "_{i}");
            }
            match port {
                Port::In(node, output) => {
                    source.clear();
                    source.extend([*node, "#", output]);
                    xml.empty(
                        input,
                        &[("name", name), ("type", "DIET_FILE"), ("source", source)],
                    )?
                }
                Port::File(file) => xml.empty(
                    arg_element,
                    &[("name", name), ("type", "DIET_FILE"), ("value", file)],
                )?,
            }
        }
    }
    for output in &step.outputs_read {
        xml.empty(
            &mut elements.output,
            &[("name", output), ("type", "DIET_FILE")],
        )?;
    }
    for &dependency in &step.depends_on {
        for source in &workflow.steps[dependency as usize].instances {
            if !read_from.contains(&source.id.as_str()) {
                xml.empty(&mut elements.prec, &[("id", &source.id)])?;
            }
        }
    }
    xml.event(Event::End(BytesEnd::new("node")))
}

enum Port<'a> {
    /// An `<in>` reading `node#port`: the node and the port.
    In(&'a str, &'a str),
    /// A required file among references to steps.
    File(&'a str),
}

/// A literal parameter's DIET type and value.
fn arg<'a>(workflow: &ExpandedWorkflow, value: &'a Value) -> (&'static str, Cow<'a, str>) {
    match value {
        Value::Literal(literal) => match &literal.kind {
            LiteralValue::String(content) => ("DIET_STRING", Cow::Borrowed(content)),
            LiteralValue::Int(n) if i32::try_from(*n).is_ok() => ("DIET_INT", n.to_string().into()),
            LiteralValue::Int(n) => ("DIET_LONGINT", n.to_string().into()),
            LiteralValue::Double => ("DIET_DOUBLE", Cow::Borrowed(&literal.text)),
            LiteralValue::Bool(b) => ("DIET_CHAR", Cow::Borrowed(if *b { "1" } else { "0" })),
            LiteralValue::Constant(name) => ("DIET_PARAMSTRING", Cow::Borrowed(name)),
        },
        Value::List(_) => ("DIET_CONTAINER", value.text().into()),
        Value::Ref(reference) if workflow.target(reference) == RefTarget::File => {
            ("DIET_FILE", Cow::Borrowed(&reference.head))
        }
        Value::Ref(_) | Value::Invalid => ("DIET_STRING", value.text().into()),
    }
}
