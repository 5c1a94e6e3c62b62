//! The value of an expression, position-free, read once from the tree
//! ([`Value::of`]): what the attribute rules, the catalog checks and the
//! exports all read. Each value can write itself back as EasyFlow text
//! (canonical: tokens as written, no trivia, `, ` between list elements),
//! and each reference knows its members and the output it reads.

use std::fmt;

use smol_str::SmolStr;

use crate::StepMember;
use crate::ast::{self, TreeNode, TreeToken};

/// An expression's value (or part of one).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Literal(Literal),
    List(Vec<Value>),
    Ref(Box<Reference>),
    /// Missing or unparseable (the parser reported it).
    Invalid,
}

/// A literal: its kind with its value, and its token as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Literal {
    pub kind: LiteralValue,
    /// The token as written (`"a\n"`, `+7`, `1.5e3`, `@high`): inline when
    /// short, as most are (a cold check keeps every attribute's value).
    pub text: SmolStr,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LiteralValue {
    /// With its escapes resolved.
    String(String),
    Int(i64),
    /// Doubles are kept as written ([`Literal::text`]): they have no `Eq`.
    Double,
    Bool(bool),
    /// The constant's name without `@`.
    Constant(String),
}

/// A reference (`A.outs["x"]`), with what it reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The first segment's name: what the reference resolves by (empty
    /// when that segment has none: a lexical error, already reported).
    pub head: SmolStr,
    /// The names of the segments after the head, up to the first without
    /// one (a lexical error, already reported).
    pub members: Vec<SmolStr>,
    /// The output it reads when `head` is a step (see [`output_name`]).
    pub output: String,
    /// Its last segment has an index (`A.outs["x"]`): it reads one output
    /// by name, not `A.outs` or `A.Result` whole.
    pub indexed: bool,
    /// The reference as written, without trivia.
    pub text: String,
    /// The expressions inside its indexers (which may hold references too).
    pub indexes: Vec<Value>,
}

impl Value {
    pub fn of<N: TreeNode>(expr: Option<ast::Expr<N>>) -> Value {
        let Some(expr) = expr else {
            return Value::Invalid;
        };
        match expr {
            ast::Expr::Literal(literal) => {
                literal_of(&literal).map_or(Value::Invalid, Value::Literal)
            }
            ast::Expr::List(list) => {
                // Counted first, so that the list has exactly its room.
                let mut elements = Vec::with_capacity(list.elements().count());
                elements.extend(list.elements().map(|e| Value::of(Some(e))));
                Value::List(elements)
            }
            ast::Expr::Ref(reference) => Value::Ref(Box::new(reference_of(&reference))),
        }
    }

    /// The value of `text` written as a parameter's value (`Invalid` when
    /// it is not one expression): values from text, for tests and tools.
    pub fn parse(text: &str) -> Value {
        let parse = crate::parse(&format!("step S runs P (x = {text});"));
        let param = parse
            .syntax()
            .descendants()
            .find_map(<ast::Param<crate::SyntaxNode> as ast::AstNode>::cast);
        let errors = !parse.errors().is_empty();
        match param {
            Some(param) if !errors => Value::of(param.value()),
            _ => Value::Invalid,
        }
    }

    /// The literal's value, when it is one.
    pub fn literal(&self) -> Option<&LiteralValue> {
        match self {
            Value::Literal(literal) => Some(&literal.kind),
            _ => None,
        }
    }

    /// The value as EasyFlow text (also its [`fmt::Display`], for writing
    /// it where it goes without this `String`).
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// Every reference in the value, at any depth (list elements,
    /// indexers), in text order.
    pub fn references(&self) -> Vec<&Reference> {
        let mut out = Vec::new();
        self.collect_references(&mut out);
        out
    }

    fn collect_references<'a>(&'a self, out: &mut Vec<&'a Reference>) {
        match self {
            Value::List(elements) => elements.iter().for_each(|e| e.collect_references(out)),
            Value::Ref(reference) => {
                out.push(reference);
                reference
                    .indexes
                    .iter()
                    .for_each(|e| e.collect_references(out));
            }
            Value::Literal(_) | Value::Invalid => {}
        }
    }

    /// Whether the value holds no reference at all.
    pub fn is_literal(&self) -> bool {
        match self {
            Value::Literal(_) => true,
            Value::List(elements) => elements.iter().all(Value::is_literal),
            Value::Ref(_) | Value::Invalid => false,
        }
    }

    /// How the value reads in messages.
    pub fn describe(&self) -> String {
        match self {
            Value::Literal(literal) => match &literal.kind {
                LiteralValue::String(s) => format!("the string {s:?}"),
                LiteralValue::Int(i) => format!("the integer {i}"),
                LiteralValue::Double => format!("the number {}", literal.text),
                LiteralValue::Bool(b) => format!("`{b}`"),
                LiteralValue::Constant(c) => format!("`@{c}`"),
            },
            Value::List(_) => "a list".to_string(),
            Value::Ref(reference) => format!("the reference `{}`", reference.text),
            Value::Invalid => "an invalid value".to_string(),
        }
    }
}

/// The value as EasyFlow text ([`Value::text`]).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Literal(literal) => f.write_str(&literal.text),
            Value::List(elements) => {
                f.write_str("[")?;
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    element.fmt(f)?;
                }
                f.write_str("]")
            }
            Value::Ref(reference) => f.write_str(&reference.text),
            Value::Invalid => Ok(()),
        }
    }
}

impl Reference {
    /// A bare name (`input`), as a reference to it reads.
    pub fn bare(name: &str) -> Reference {
        Reference {
            head: SmolStr::new(name),
            members: Vec::new(),
            output: output_name(&[], None),
            indexed: false,
            text: name.to_string(),
            indexes: Vec::new(),
        }
    }

    /// Whether it names files (`catalog.md`): a bare name (a required
    /// file), or a step's outputs (`A.outs`, `A.Result.outs`). What other
    /// references (`A.Result`) hold is not known.
    pub fn is_file(&self) -> bool {
        self.members.is_empty()
            || self
                .members
                .iter()
                .any(|m| StepMember::from_name(m) == Some(StepMember::Outs))
    }
}

fn literal_of<N: TreeNode>(literal: &ast::Literal<N>) -> Option<Literal> {
    let text = SmolStr::new(literal.token()?.text());
    let kind = match literal.kind()? {
        ast::LiteralKind::String => LiteralValue::String(literal.string_value()?),
        ast::LiteralKind::Int => LiteralValue::Int(literal.int_value()?),
        ast::LiteralKind::Double => LiteralValue::Double,
        ast::LiteralKind::Bool => LiteralValue::Bool(literal.bool_value()?),
        ast::LiteralKind::Constant => LiteralValue::Constant(literal.constant_name()?),
    };
    Some(Literal { kind, text })
}

fn reference_of<N: TreeNode>(reference: &ast::RefExpr<N>) -> Reference {
    let name = |segment: &ast::Segment<N>| {
        let ident = segment.name_ref()?.ident_token()?;
        Some(SmolStr::new(ident.text()))
    };
    let mut segments = reference.segments();
    let head = segments.next().and_then(|s| name(&s)).unwrap_or_default();
    let members: Vec<SmolStr> = exact(segments.map_while(|s| name(&s)).collect());
    let mut indexes = Vec::with_capacity(
        reference
            .segments()
            .filter(|segment| segment.indexer().is_some())
            .count(),
    );
    let mut last_index = None;
    for segment in reference.segments() {
        let index = segment.indexer().map(|indexer| Value::of(indexer.expr()));
        if let Some(index) = &index {
            indexes.push(index.clone());
        }
        last_index = index;
    }
    Reference {
        output: output_name(&members, last_index.as_ref()),
        indexed: last_index.is_some(),
        head,
        members,
        text: exact_string(reference.text()),
        indexes,
    }
}

/// `list` in an allocation of exactly its length. Values are kept for
/// every step of a flow by the exports, and a list grown item by item has
/// room for up to twice its items (for four at least).
pub fn exact<T>(mut list: Vec<T>) -> Vec<T> {
    if list.len() == list.capacity() {
        return list;
    }
    // A copy rather than `shrink_to_fit`: an allocator may keep a block
    // that shrinks by less than half, as mimalloc does.
    let mut exact = Vec::with_capacity(list.len());
    exact.append(&mut list);
    exact
}

/// `text` in an allocation of exactly its length (see [`exact`]).
fn exact_string(text: String) -> String {
    if text.len() == text.capacity() {
        return text;
    }
    text.as_str().to_owned()
}

/// The name of the output a step reference reads: the index of its last
/// segment (`A.outs["x"]` and `A.Result.outs["x"]` read `x`; a non-string
/// index reads its EasyFlow text), else its last member (`A.Result.outs`
/// reads `outs`), else `Result` (a bare `A` reads its result).
pub fn output_name(members: &[SmolStr], last_index: Option<&Value>) -> String {
    match last_index {
        Some(Value::Literal(Literal {
            kind: LiteralValue::String(name),
            ..
        })) => name.clone(),
        Some(other) => other.text(),
        None => members
            .last()
            .map_or(StepMember::Result.name(), SmolStr::as_str)
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_their_text() {
        let value = Value::parse("[+1000, \"a\\n\", 2.5e3, @high, true, A.Result.outs[\"x\"]]");
        assert_eq!(
            value.text(),
            "[+1000, \"a\\n\", 2.5e3, @high, true, A.Result.outs[\"x\"]]"
        );
        let Value::List(elements) = &value else {
            panic!("{value:?}")
        };
        assert_eq!(elements[0].literal(), Some(&LiteralValue::Int(1000)));
        assert_eq!(
            elements[1].literal(),
            Some(&LiteralValue::String("a\n".into()))
        );
        assert_eq!(elements[3].describe(), "`@high`");
        let reference = value.references()[0];
        assert_eq!(
            (reference.head.as_str(), reference.output.as_str()),
            ("A", "x")
        );
        assert_eq!(reference.members, ["Result", "outs"]);
        assert!(reference.is_file());
        assert!(!value.is_literal());
        assert_eq!(Value::parse("A.Result").references()[0].output, "Result");
        assert!(!Value::parse("A.Result").references()[0].is_file());
        assert_eq!(Value::parse("A").references()[0].output, "Result");
        assert_eq!(Value::parse("1 2"), Value::Invalid);
    }
}
