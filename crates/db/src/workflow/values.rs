//! Parameter values as the exports need them: position-free expressions
//! read once from a step's tree, each able to write itself back as EasyFlow
//! text (canonical: tokens as written, no trivia, `, ` between list
//! elements), and each reference with the output name it reads.

use easyflow_syntax::ast::{self, TreeNode, TreeToken};
use smol_str::SmolStr;

/// A parameter's value (or part of one).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    Literal(Literal),
    List(Vec<Expr>),
    Ref(Reference),
    /// Missing or unparseable (the parser reported it; such flows are not
    /// exported).
    Invalid,
}

/// A literal: its kind with its value, and its token as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Literal {
    pub kind: LiteralValue,
    /// The token as written (`"a\n"`, `0x`-free integers, `1.5e3`, `@high`).
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LiteralValue {
    /// With its escapes resolved.
    String(String),
    Int(i64),
    /// Doubles are kept as written.
    Double,
    Bool(bool),
    /// The constant's name without `@`.
    Constant(String),
}

/// A reference (`A.outs["x"]`), with what it reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The first segment: what the reference resolves by.
    pub head: SmolStr,
    /// The output it reads when `head` is a step (see [`output_name`]).
    pub output: String,
    /// Its last segment has an index (`A.outs["x"]`): it reads one output
    /// by name, not `A.outs` or `A.Result` whole.
    pub indexed: bool,
    /// The reference as written, without trivia.
    pub text: String,
    /// The expressions inside its indexers (which may hold references too).
    pub indexes: Vec<Expr>,
}

impl Expr {
    pub fn of<N: TreeNode>(expr: Option<ast::Expr<N>>) -> Expr {
        let Some(expr) = expr else {
            return Expr::Invalid;
        };
        match expr {
            ast::Expr::Literal(literal) => {
                literal_of(&literal).map_or(Expr::Invalid, Expr::Literal)
            }
            ast::Expr::List(list) => {
                Expr::List(list.elements().map(|e| Expr::of(Some(e))).collect())
            }
            ast::Expr::Ref(reference) => reference_of(&reference).map_or(Expr::Invalid, Expr::Ref),
        }
    }

    /// The value as EasyFlow text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write_text(&mut out);
        out
    }

    fn write_text(&self, out: &mut String) {
        match self {
            Expr::Literal(literal) => out.push_str(&literal.text),
            Expr::List(elements) => {
                out.push('[');
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    element.write_text(out);
                }
                out.push(']');
            }
            Expr::Ref(reference) => out.push_str(&reference.text),
            Expr::Invalid => {}
        }
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
            Expr::List(elements) => elements.iter().for_each(|e| e.collect_references(out)),
            Expr::Ref(reference) => {
                out.push(reference);
                reference
                    .indexes
                    .iter()
                    .for_each(|e| e.collect_references(out));
            }
            Expr::Literal(_) | Expr::Invalid => {}
        }
    }

    /// Whether the value holds no reference at all.
    pub fn is_literal(&self) -> bool {
        match self {
            Expr::Literal(_) => true,
            Expr::List(elements) => elements.iter().all(Expr::is_literal),
            Expr::Ref(_) | Expr::Invalid => false,
        }
    }
}

fn literal_of<N: TreeNode>(literal: &ast::Literal<N>) -> Option<Literal> {
    let text = literal.token()?.text().to_string();
    let kind = match literal.kind()? {
        ast::LiteralKind::String => LiteralValue::String(literal.string_value()?),
        ast::LiteralKind::Int => LiteralValue::Int(literal.int_value()?),
        ast::LiteralKind::Double => LiteralValue::Double,
        ast::LiteralKind::Bool => LiteralValue::Bool(literal.bool_value()?),
        ast::LiteralKind::Constant => LiteralValue::Constant(literal.constant_name()?),
    };
    Some(Literal { kind, text })
}

fn reference_of<N: TreeNode>(reference: &ast::RefExpr<N>) -> Option<Reference> {
    let segments: Vec<ast::Segment<N>> = reference.segments().collect();
    let mut names = Vec::new();
    let mut indexes = Vec::new();
    let mut last_index = None;
    for segment in &segments {
        let name = segment.name_ref()?.ident_token()?.text().to_string();
        let index = segment.indexer().map(|indexer| Expr::of(indexer.expr()));
        if let Some(index) = &index {
            indexes.push(index.clone());
        }
        last_index = index;
        names.push(name);
    }
    let head = SmolStr::new(names.first()?);
    Some(Reference {
        output: output_name(&names[1..], last_index.as_ref()),
        indexed: last_index.is_some(),
        head,
        text: reference.text(),
        indexes,
    })
}

/// The name of the output a step reference reads: the index of its last
/// segment (`A.outs["x"]` and `A.Result.outs["x"]` read `x`; a non-string
/// index reads its EasyFlow text), else its last member (`A.Result.outs`
/// reads `outs`), else `Result` (a bare `A` reads its result).
pub fn output_name(members: &[String], last_index: Option<&Expr>) -> String {
    match last_index {
        Some(Expr::Literal(Literal {
            kind: LiteralValue::String(name),
            ..
        })) => name.clone(),
        Some(other) => other.text(),
        None => members
            .last()
            .cloned()
            .unwrap_or_else(|| "Result".to_string()),
    }
}
