//! The typed AST: a zero-cost view over the rowan tree, one type per node kind,
//! with accessors that return `None` where the parser recovered from an error.

use rowan::ast::support;
pub use rowan::ast::{AstChildren, AstNode, AstPtr, SyntaxNodePtr};

use crate::SyntaxKind::{self, *};
use crate::{EasyFlowLanguage, SyntaxNode, SyntaxToken};

macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(SyntaxNode);

        impl AstNode for $name {
            type Language = EasyFlowLanguage;

            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }

            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| $name(node))
            }

            fn syntax(&self) -> &SyntaxNode {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

ast_node!(
    /// The whole file.
    SourceFile, SOURCE_FILE
);
ast_node!(
    /// `[flow:key = value]`
    FlowAttribute, FLOW_ATTRIBUTE
);
ast_node!(
    /// `require a, b;`
    Require, REQUIRE
);
ast_node!(
    /// `[attributes] [~]step Name runs Package after … ( params ) [pre …] [post …] [;]`
    Step, STEP
);
ast_node!(
    /// `[key = value]` before a step.
    Attribute, ATTRIBUTE
);
ast_node!(
    /// A name being defined: a step, a required file, a parameter, an attribute key.
    Name, NAME
);
ast_node!(
    /// A name being used: in `after`/`on` lists and in reference segments.
    NameRef, NAME_REF
);
ast_node!(
    /// `Package.Method`
    PackagePath, PACKAGE_PATH
);
ast_node!(
    /// `after A, B`
    AfterClause, AFTER_CLAUSE
);
ast_node!(
    /// `on A, B` (reserved: parsed, then reported as unsupported)
    OnClause, ON_CLAUSE
);
ast_node!(
    /// `( … )`: the parameter sections of a step.
    ParamBlock, PARAM_BLOCK
);
ast_node!(
    /// `[app:|exec:] param, param, …`
    ParamSection, PARAM_SECTION
);
ast_node!(
    /// `[:]name = [sweep] value` or `name <- source`
    Param, PARAM
);
ast_node!(
    /// `pre code …` or `post code …`
    CodeSection, CODE_SECTION
);
ast_node!(
    /// A string, number, boolean or constant.
    Literal, LITERAL
);
ast_node!(
    /// `[a, b, c]`
    ListExpr, LIST_EXPR
);
ast_node!(
    /// `A.outs["x"]`: segments separated by dots.
    RefExpr, REF_EXPR
);
ast_node!(
    /// One name of a reference, with an optional indexer.
    Segment, SEGMENT
);
ast_node!(
    /// `[expression]` after a segment.
    Indexer, INDEXER
);

fn token_text(token: Option<SyntaxToken>) -> Option<String> {
    token.map(|t| t.text().to_string())
}

impl SourceFile {
    pub fn flow_attributes(&self) -> AstChildren<FlowAttribute> {
        support::children(&self.0)
    }

    pub fn requires(&self) -> AstChildren<Require> {
        support::children(&self.0)
    }

    pub fn steps(&self) -> AstChildren<Step> {
        support::children(&self.0)
    }
}

impl FlowAttribute {
    pub fn key(&self) -> Option<Name> {
        support::child(&self.0)
    }

    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl Attribute {
    pub fn key(&self) -> Option<Name> {
        support::child(&self.0)
    }

    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl Require {
    pub fn names(&self) -> AstChildren<Name> {
        support::children(&self.0)
    }
}

impl Name {
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, IDENT)
    }

    pub fn text(&self) -> String {
        token_text(self.ident_token()).unwrap_or_default()
    }
}

impl NameRef {
    pub fn ident_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, IDENT)
    }

    pub fn text(&self) -> String {
        token_text(self.ident_token()).unwrap_or_default()
    }
}

impl Step {
    pub fn attributes(&self) -> AstChildren<Attribute> {
        support::children(&self.0)
    }

    /// The `~` of a long-running step.
    pub fn tilde_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, TILDE)
    }

    pub fn is_long_running(&self) -> bool {
        self.tilde_token().is_some()
    }

    pub fn step_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, STEP_KW)
    }

    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }

    pub fn package(&self) -> Option<PackagePath> {
        support::child(&self.0)
    }

    pub fn after_clauses(&self) -> AstChildren<AfterClause> {
        support::children(&self.0)
    }

    pub fn on_clauses(&self) -> AstChildren<OnClause> {
        support::children(&self.0)
    }

    pub fn param_block(&self) -> Option<ParamBlock> {
        support::child(&self.0)
    }

    /// Every parameter of every section, in order.
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        self.param_block()
            .into_iter()
            .flat_map(|block| block.params())
    }

    pub fn code_sections(&self) -> AstChildren<CodeSection> {
        support::children(&self.0)
    }
}

impl PackagePath {
    /// The dotted names, e.g. `["ScienceVis", "ThreeDGraph", "Mesh"]`.
    pub fn segments(&self) -> impl Iterator<Item = SyntaxToken> + use<> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == IDENT)
    }

    /// The path as written, without trivia: `ORCA.DFT`.
    pub fn text(&self) -> String {
        self.segments()
            .map(|t| t.text().to_string())
            .collect::<Vec<_>>()
            .join(".")
    }
}

impl AfterClause {
    pub fn names(&self) -> AstChildren<NameRef> {
        support::children(&self.0)
    }
}

impl OnClause {
    pub fn on_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, ON_KW)
    }

    pub fn names(&self) -> AstChildren<NameRef> {
        support::children(&self.0)
    }
}

impl ParamBlock {
    pub fn sections(&self) -> AstChildren<ParamSection> {
        support::children(&self.0)
    }

    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        self.sections().flat_map(|section| section.params())
    }

    pub fn l_paren_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, L_PAREN)
    }

    pub fn r_paren_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, R_PAREN)
    }
}

/// Which part of a step's parameters a section holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SectionKind {
    /// `app:` or no label: the application's parameters.
    App,
    /// `exec:`: the execution parameters.
    Exec,
}

impl ParamSection {
    pub fn label_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, APP_KW).or_else(|| support::token(&self.0, EXEC_KW))
    }

    pub fn kind(&self) -> SectionKind {
        match self.label_token() {
            Some(token) if token.kind() == EXEC_KW => SectionKind::Exec,
            _ => SectionKind::App,
        }
    }

    pub fn params(&self) -> AstChildren<Param> {
        support::children(&self.0)
    }
}

impl Param {
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }

    /// The `<-` of a stream parameter.
    pub fn arrow_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, ARROW)
    }

    pub fn is_stream(&self) -> bool {
        self.arrow_token().is_some()
    }

    pub fn sweep_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, SWEEP_KW)
    }

    pub fn is_sweep(&self) -> bool {
        self.sweep_token().is_some()
    }

    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

/// When embedded code runs relative to its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeSectionKind {
    Pre,
    Post,
}

impl CodeSection {
    pub fn keyword_token(&self) -> Option<SyntaxToken> {
        self.0
            .first_token()
            .filter(|t| matches!(t.kind(), PRE_KW | POST_KW))
    }

    pub fn kind(&self) -> CodeSectionKind {
        match self.keyword_token() {
            Some(t) if t.kind() == PRE_KW => CodeSectionKind::Pre,
            _ => CodeSectionKind::Post,
        }
    }

    pub fn code_block_token(&self) -> Option<SyntaxToken> {
        support::token(&self.0, CODE_BLOCK)
    }

    /// The language named after `code`, e.g. `ruby`.
    pub fn language(&self) -> Option<String> {
        let block = self.code_block_token()?;
        let first_line = block.text().lines().next()?;
        let language = first_line["code".len()..].trim();
        let word: String = language
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!word.is_empty()).then_some(word)
    }
}

/// Any expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    Literal(Literal),
    List(ListExpr),
    Ref(RefExpr),
}

impl AstNode for Expr {
    type Language = EasyFlowLanguage;

    fn can_cast(kind: SyntaxKind) -> bool {
        matches!(kind, LITERAL | LIST_EXPR | REF_EXPR)
    }

    fn cast(node: SyntaxNode) -> Option<Self> {
        match node.kind() {
            LITERAL => Some(Expr::Literal(Literal(node))),
            LIST_EXPR => Some(Expr::List(ListExpr(node))),
            REF_EXPR => Some(Expr::Ref(RefExpr(node))),
            _ => None,
        }
    }

    fn syntax(&self) -> &SyntaxNode {
        match self {
            Expr::Literal(it) => it.syntax(),
            Expr::List(it) => it.syntax(),
            Expr::Ref(it) => it.syntax(),
        }
    }
}

/// The form of a literal, which is its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralKind {
    String,
    Int,
    Double,
    Bool,
    Constant,
}

impl Literal {
    pub fn token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }

    pub fn kind(&self) -> Option<LiteralKind> {
        Some(match self.token()?.kind() {
            STRING => LiteralKind::String,
            INT => LiteralKind::Int,
            DOUBLE => LiteralKind::Double,
            TRUE_KW | FALSE_KW => LiteralKind::Bool,
            CONSTANT => LiteralKind::Constant,
            _ => return None,
        })
    }

    /// The value of a string literal with its escapes resolved; `None` for
    /// other literals. Invalid escapes (already reported) are kept as written.
    pub fn string_value(&self) -> Option<String> {
        let token = self.token().filter(|t| t.kind() == STRING)?;
        Some(unescape(token.text()))
    }

    /// The value of an integer literal that fits in 64 bits.
    pub fn int_value(&self) -> Option<i64> {
        let token = self.token().filter(|t| t.kind() == INT)?;
        token.text().parse().ok()
    }

    /// The name of a constant without its `@`.
    pub fn constant_name(&self) -> Option<String> {
        let token = self.token().filter(|t| t.kind() == CONSTANT)?;
        Some(token.text()[1..].to_string())
    }
}

/// Resolves the escapes of a string token's text (quotes included).
fn unescape(quoted: &str) -> String {
    let body = quoted.strip_prefix('"').unwrap_or(quoted);
    let body = body.strip_suffix('"').unwrap_or(body);
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('f') => out.push('\u{c}'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.clone().take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) if hex.len() == 4 => {
                        out.push(decoded);
                        chars.nth(3);
                    }
                    _ => out.push_str("\\u"),
                }
            }
            Some(d @ '0'..='7') => {
                let max = if d <= '3' { 3 } else { 2 };
                let mut value = d.to_digit(8).unwrap_or(0);
                for _ in 1..max {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(digit) => {
                            value = value * 8 + digit;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(value).unwrap_or('\u{fffd}'));
            }
            Some(other @ ('"' | '\\' | '\'')) => out.push(other),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

impl ListExpr {
    pub fn elements(&self) -> AstChildren<Expr> {
        support::children(&self.0)
    }
}

impl RefExpr {
    pub fn segments(&self) -> AstChildren<Segment> {
        support::children(&self.0)
    }

    /// The first segment's name: what the reference resolves by.
    pub fn head(&self) -> Option<NameRef> {
        self.segments().next()?.name_ref()
    }
}

impl Segment {
    pub fn name_ref(&self) -> Option<NameRef> {
        support::child(&self.0)
    }

    pub fn indexer(&self) -> Option<Indexer> {
        support::child(&self.0)
    }
}

impl Indexer {
    pub fn expr(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn accessors_reach_every_construct() {
        let text = r#"[flow:name = "demo"]
require f1, f2;
[priority = @high]
~step S runs Pkg.Method after A, B on C
(
  app: :x = 1, y <- A.outs["o\u0041"],
  exec: z = sweep [1.5, [true, f1]]
)
pre code python
  print(1)
code end
post code ruby
code end;
"#;
        let file = parse(text).tree();
        let attribute = file.flow_attributes().next().unwrap();
        assert_eq!(attribute.key().unwrap().text(), "name");
        let Some(Expr::Literal(value)) = attribute.value() else {
            panic!()
        };
        assert_eq!(value.string_value().as_deref(), Some("demo"));
        let names: Vec<_> = file
            .requires()
            .flat_map(|r| r.names())
            .map(|n| n.text())
            .collect();
        assert_eq!(names, ["f1", "f2"]);

        let step = file.steps().next().unwrap();
        assert!(step.is_long_running());
        assert_eq!(step.name().unwrap().text(), "S");
        assert_eq!(step.package().unwrap().text(), "Pkg.Method");
        assert_eq!(
            step.attributes().next().unwrap().key().unwrap().text(),
            "priority"
        );
        let after: Vec<_> = step
            .after_clauses()
            .flat_map(|c| c.names())
            .map(|n| n.text())
            .collect();
        assert_eq!(after, ["A", "B"]);
        assert_eq!(step.on_clauses().flat_map(|c| c.names()).count(), 1);

        let sections: Vec<_> = step
            .param_block()
            .unwrap()
            .sections()
            .map(|s| s.kind())
            .collect();
        assert_eq!(sections, [SectionKind::App, SectionKind::Exec]);
        let params: Vec<_> = step.params().collect();
        assert_eq!(params.len(), 3);
        assert_eq!(params[0].name().unwrap().text(), "x");
        assert!(params[1].is_stream());
        let Some(Expr::Ref(source)) = params[1].value() else {
            panic!()
        };
        assert_eq!(source.head().unwrap().text(), "A");
        let segments: Vec<_> = source.segments().collect();
        assert_eq!(segments[1].name_ref().unwrap().text(), "outs");
        let Some(Expr::Literal(index)) = segments[1].indexer().unwrap().expr() else {
            panic!()
        };
        assert_eq!(index.string_value().as_deref(), Some("oA"));
        assert!(params[2].is_sweep());
        let Some(Expr::List(list)) = params[2].value() else {
            panic!()
        };
        assert_eq!(list.elements().count(), 2);

        let code: Vec<_> = step
            .code_sections()
            .map(|c| (c.kind(), c.language()))
            .collect();
        assert_eq!(
            code,
            [
                (CodeSectionKind::Pre, Some("python".to_string())),
                (CodeSectionKind::Post, Some("ruby".to_string()))
            ]
        );
    }

    #[test]
    fn unescape_resolves_every_escape() {
        assert_eq!(
            unescape(r#""a\"b\\c\'\t\u00e9\101\7""#),
            "a\"b\\c'\t\u{e9}A\u{7}"
        );
        assert_eq!(unescape(r#""bad \q""#), "bad \\q");
    }
}
