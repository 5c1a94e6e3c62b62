//! From the ungrammar to what the generator writes: the nodes (each with a
//! kind and accessors) and the enums over nodes, in the grammar's order.

use std::collections::HashMap;

use ungrammar::{Grammar, Rule};

pub struct Model {
    pub nodes: Vec<NodeSrc>,
    pub enums: Vec<EnumSrc>,
}

/// A node with a kind of its own (`Step`, kind `STEP`).
pub struct NodeSrc {
    pub name: String,
    pub doc: Vec<String>,
    pub fields: Vec<Field>,
}

/// An alternation of nodes (`Expr = Literal | ListExpr | RefExpr`).
pub struct EnumSrc {
    pub name: String,
    pub doc: Vec<String>,
    /// (variant, node type)
    pub variants: Vec<(String, String)>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Field {
    /// `kind` is a `SyntaxKind` variant.
    Token { method: String, kind: String },
    Node {
        method: String,
        ty: String,
        many: bool,
    },
}

impl Field {
    pub fn method(&self) -> &str {
        match self {
            Field::Token { method, .. } | Field::Node { method, .. } => method,
        }
    }
}

/// Punctuation tokens and their `SyntaxKind` names.
const PUNCTUATION: &[(&str, &str)] = &[
    ("{", "L_BRACE"),
    ("}", "R_BRACE"),
    ("[", "L_BRACK"),
    ("]", "R_BRACK"),
    ("(", "L_PAREN"),
    (")", "R_PAREN"),
    ("=", "EQ"),
    (";", "SEMICOLON"),
    (":", "COLON"),
    (".", "DOT"),
    (",", "COMMA"),
    ("~", "TILDE"),
    ("<-", "ARROW"),
];

pub fn lower(text: &str) -> Result<Model, String> {
    let grammar: Grammar = text.parse().map_err(|e| format!("easyflow.ungram: {e}"))?;
    let mut docs = doc_comments(text);
    let mut model = Model {
        nodes: Vec::new(),
        enums: Vec::new(),
    };
    for node in grammar.iter() {
        let data = &grammar[node];
        let name = data.name.clone();
        let doc = docs.remove(&name).unwrap_or_default();
        if let Some(types) = enum_variants(&grammar, &data.rule) {
            let variants = types
                .into_iter()
                .map(|ty| (variant_name(&name, &ty), ty))
                .collect();
            model.enums.push(EnumSrc {
                name,
                doc,
                variants,
            });
        } else {
            let mut fields = Vec::new();
            lower_rule(&mut fields, &grammar, None, &data.rule)
                .map_err(|e| format!("easyflow.ungram: in `{name}`: {e}"))?;
            dedup(&mut fields);
            model.nodes.push(NodeSrc { name, doc, fields });
        }
    }
    check(&model)?;
    Ok(model)
}

/// Rejects what would not compile or would be ambiguous, with a message that
/// names the rule.
fn check(model: &Model) -> Result<(), String> {
    let is_node = |ty: &str| model.nodes.iter().any(|n| n.name == ty);
    let is_type = |ty: &str| is_node(ty) || model.enums.iter().any(|e| e.name == ty);
    for node in &model.nodes {
        let mut methods = std::collections::HashSet::new();
        for field in &node.fields {
            if !methods.insert(field.method()) {
                return Err(format!(
                    "easyflow.ungram: `{}` has two accessors named `{}`: label one",
                    node.name,
                    field.method()
                ));
            }
            if let Field::Node { ty, .. } = field
                && !is_type(ty)
            {
                return Err(format!("easyflow.ungram: `{ty}` has no rule"));
            }
        }
    }
    for enm in &model.enums {
        for (_, ty) in &enm.variants {
            if !is_node(ty) {
                return Err(format!(
                    "easyflow.ungram: `{}`: its alternative `{ty}` must be a node with a kind",
                    enm.name
                ));
            }
        }
    }
    Ok(())
}

/// The `//` lines right above each rule, by rule name.
fn doc_comments(text: &str) -> HashMap<String, Vec<String>> {
    let mut docs = HashMap::new();
    let mut pending = Vec::new();
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("//") {
            pending.push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
            continue;
        }
        let definition = line
            .split_once('=')
            .map(|(name, _)| name.trim())
            .filter(|name| {
                !line.starts_with(char::is_whitespace)
                    && !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric())
            });
        match definition {
            Some(name) => {
                docs.insert(name.to_string(), std::mem::take(&mut pending));
            }
            None => pending.clear(),
        }
    }
    docs
}

/// The node types of a rule that is only an alternation of nodes.
fn enum_variants(grammar: &Grammar, rule: &Rule) -> Option<Vec<String>> {
    let Rule::Alt(alternatives) = rule else {
        return None;
    };
    alternatives
        .iter()
        .map(|alternative| match alternative {
            Rule::Node(node) => Some(grammar[*node].name.clone()),
            _ => None,
        })
        .collect()
}

/// `ListExpr` in `Expr` is `List`; `AfterClause` in `DependencyClause` is
/// `After`: a variant drops the last word of its enum's name.
fn variant_name(enum_name: &str, ty: &str) -> String {
    let last_word_at = enum_name
        .rfind(|c: char| c.is_ascii_uppercase())
        .unwrap_or(0);
    match ty.strip_suffix(&enum_name[last_word_at..]) {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => ty.to_string(),
    }
}

fn lower_rule(
    fields: &mut Vec<Field>,
    grammar: &Grammar,
    label: Option<&str>,
    rule: &Rule,
) -> Result<(), String> {
    match rule {
        Rule::Node(node) => {
            let ty = grammar[*node].name.clone();
            let method = label.map_or_else(|| snake_case(&ty), str::to_string);
            fields.push(Field::Node {
                method,
                ty,
                many: false,
            });
        }
        Rule::Token(token) => {
            let kind = token_kind(&grammar[*token].name)?;
            let method = match label {
                Some(label) => label.to_string(),
                None => format!(
                    "{}_token",
                    kind.strip_suffix("_KW")
                        .unwrap_or(&kind)
                        .to_ascii_lowercase()
                ),
            };
            fields.push(Field::Token { method, kind });
        }
        Rule::Rep(item) => lower_many(fields, grammar, label, item)?,
        Rule::Labeled { label: inner, rule } => {
            if label.is_some() {
                return Err(format!("a label inside the label `{inner}`"));
            }
            lower_rule(fields, grammar, Some(inner), rule)?;
        }
        Rule::Seq(rules) => {
            let mut rest = rules.as_slice();
            while let Some((first, after)) = rest.split_first() {
                match after.split_first() {
                    Some((next, after_list)) if continues_list(first, next) => {
                        lower_many(fields, grammar, label, first)?;
                        rest = after_list;
                    }
                    _ => {
                        lower_rule(fields, grammar, label, first)?;
                        rest = after;
                    }
                }
            }
        }
        Rule::Alt(rules) => {
            for rule in rules {
                lower_rule(fields, grammar, label, rule)?;
            }
        }
        Rule::Opt(rule) => lower_rule(fields, grammar, label, rule)?,
    }
    Ok(())
}

/// A repeated item: every node of it (`Param*`), or one accessor for its
/// first token (`'#ident' ('.' '#ident')*`).
fn lower_many(
    fields: &mut Vec<Field>,
    grammar: &Grammar,
    label: Option<&str>,
    item: &Rule,
) -> Result<(), String> {
    match item {
        Rule::Node(node) => {
            let ty = grammar[*node].name.clone();
            let method = label.map_or_else(|| plural(&snake_case(&ty)), str::to_string);
            fields.push(Field::Node {
                method,
                ty,
                many: true,
            });
            Ok(())
        }
        Rule::Token(_) => lower_rule(fields, grammar, label, item),
        _ => Err(format!(
            "a repetition of something other than one node or token: {item:?}"
        )),
    }
}

/// Whether `rest` is `(sep X)*` after an `X`: together a list of `X`.
fn continues_list(item: &Rule, rest: &Rule) -> bool {
    let Rule::Rep(repeated) = rest else {
        return false;
    };
    let Rule::Seq(repeated) = &**repeated else {
        return false;
    };
    matches!(repeated.as_slice(), [Rule::Token(_), again] if again == item)
}

fn dedup(fields: &mut Vec<Field>) {
    let mut seen = Vec::new();
    fields.retain(|field| {
        let new = !seen.contains(&field.method().to_string());
        seen.push(field.method().to_string());
        new || !matches!(field, Field::Token { .. })
    });
}

/// `'step'` is `STEP_KW`, `'#ident'` and `'@string'` are `IDENT` and
/// `STRING`, punctuation is named by [`PUNCTUATION`].
fn token_kind(token: &str) -> Result<String, String> {
    if let Some(class) = token.strip_prefix('#').or_else(|| token.strip_prefix('@')) {
        return Ok(class.to_ascii_uppercase());
    }
    if token.chars().all(|c| c.is_ascii_lowercase()) {
        return Ok(format!("{}_KW", token.to_ascii_uppercase()));
    }
    PUNCTUATION
        .iter()
        .find(|(text, _)| *text == token)
        .map(|(_, kind)| kind.to_string())
        .ok_or_else(|| format!("no kind for the token '{token}': add it to PUNCTUATION"))
}

/// `ParamBlock` → `param_block`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `ParamBlock` → `PARAM_BLOCK`.
pub fn kind_name(name: &str) -> String {
    snake_case(name).to_ascii_uppercase()
}

fn plural(word: &str) -> String {
    if word.ends_with('s') {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowers_lists_labels_tokens_and_enums() {
        let model = lower(
            "// A thing.\nThing =\n  '(' items:(AnyPart (',' AnyPart)*)? ')' '#ident' ('.' '#ident')* 'flow'? Part*\n\
             AnyPart = Part | OtherPart\nPart = '~'\nOtherPart = '<-'\n",
        )
        .unwrap();
        let thing = &model.nodes[0];
        assert_eq!(thing.doc, ["A thing."]);
        let methods: Vec<_> = thing.fields.iter().map(Field::method).collect();
        assert_eq!(
            methods,
            [
                "l_paren_token",
                "items",
                "r_paren_token",
                "ident_token",
                "flow_token",
                "parts"
            ]
        );
        assert_eq!(
            model.enums[0].variants,
            [
                ("Part".to_string(), "Part".to_string()),
                ("Other".to_string(), "OtherPart".to_string())
            ]
        );
    }

    #[test]
    fn rejects_ambiguous_accessors_and_unknown_tokens() {
        let twice = lower("A = B B\nB = '~'\n").err().unwrap();
        assert!(twice.contains("two accessors named `b`"), "{twice}");
        let unknown = lower("A = '%'\n").err().unwrap();
        assert!(unknown.contains("no kind for the token '%'"), "{unknown}");
    }
}
