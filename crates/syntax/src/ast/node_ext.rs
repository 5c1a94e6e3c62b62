//! Hand-written accessors over the generated AST: what `easyflow.ungram`
//! cannot say (which section a parameter is in, a literal's value, a name's
//! text), defined once for every tree the AST reads.

use std::fmt;

use super::{
    AstChildren, AstNode, CodeSection, DependencyClause, Literal, Name, NameRef, OnClause,
    PackagePath, Param, ParamBlock, ParamSection, RefExpr, SourceFile, Step, support,
};
use crate::SyntaxKind::*;
use crate::string_literal::unescape;
use crate::tree::{TreeNode, TreeToken};

// The chunks are a grouping of the tree, not of the language: these read
// through them.
impl<N: TreeNode> SourceFile<N> {
    /// Every top-level item, in order.
    pub fn items(&self) -> impl Iterator<Item = super::Item<N>> {
        self.item_chunks().flat_map(|chunk| chunk.items())
    }

    pub fn flow_attributes(&self) -> impl Iterator<Item = super::FlowAttribute<N>> {
        self.item_chunks()
            .flat_map(|chunk| support::children(chunk.syntax()))
    }

    pub fn requires(&self) -> impl Iterator<Item = super::Require<N>> {
        self.item_chunks()
            .flat_map(|chunk| support::children(chunk.syntax()))
    }

    pub fn steps(&self) -> impl Iterator<Item = Step<N>> {
        self.item_chunks()
            .flat_map(|chunk| support::children(chunk.syntax()))
    }
}

/// The text of a name's identifier, empty when there is none.
fn ident_text<T: TreeToken>(ident: Option<T>) -> String {
    ident
        .map(|token| token.text().to_string())
        .unwrap_or_default()
}

impl<N: TreeNode> Name<N> {
    pub fn text(&self) -> String {
        ident_text(self.ident_token())
    }
}

impl<N: TreeNode> NameRef<N> {
    pub fn text(&self) -> String {
        ident_text(self.ident_token())
    }
}

impl<N: TreeNode> Step<N> {
    pub fn is_long_running(&self) -> bool {
        self.tilde_token().is_some()
    }

    /// Every parameter of every section, in order.
    pub fn params(&self) -> impl Iterator<Item = Param<N>> + use<N> {
        self.param_block()
            .into_iter()
            .flat_map(|block| block.params())
    }
}

impl<N: TreeNode> PackagePath<N> {
    /// The dotted names, e.g. `["ScienceVis", "ThreeDGraph", "Mesh"]`.
    pub fn segments(&self) -> impl Iterator<Item = N::Token> + use<N> {
        self.syntax()
            .child_elements()
            .filter_map(|element| element.into_token())
            .filter(|token| token.kind() == IDENT)
    }

    /// Writes the path as written, without trivia: `ORCA.DFT`.
    pub fn write_text(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for (i, segment) in self.segments().enumerate() {
            if i > 0 {
                out.write_char('.')?;
            }
            out.write_str(segment.text())?;
        }
        Ok(())
    }

    /// The path as written, without trivia: `ORCA.DFT`.
    pub fn text(&self) -> String {
        let mut text = String::new();
        let _ = self.write_text(&mut text);
        text
    }
}

impl<N: TreeNode> DependencyClause<N> {
    /// The steps named, in order.
    pub fn names(&self) -> AstChildren<NameRef<N>> {
        match self {
            DependencyClause::After(clause) => clause.names(),
            DependencyClause::On(clause) => clause.names(),
        }
    }

    /// The `on` clause (reserved), if this is one.
    pub fn on_clause(&self) -> Option<&OnClause<N>> {
        match self {
            DependencyClause::On(clause) => Some(clause),
            DependencyClause::After(_) => None,
        }
    }
}

impl<N: TreeNode> ParamBlock<N> {
    /// Every parameter of every section, in order.
    pub fn params(&self) -> impl Iterator<Item = Param<N>> + use<N> {
        self.sections().flat_map(|section| section.params())
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

impl<N: TreeNode> ParamSection<N> {
    /// `app` or `exec`.
    pub fn label_token(&self) -> Option<N::Token> {
        self.app_token().or_else(|| self.exec_token())
    }

    pub fn kind(&self) -> SectionKind {
        if self.exec_token().is_some() {
            SectionKind::Exec
        } else {
            SectionKind::App
        }
    }
}

impl<N: TreeNode> Param<N> {
    /// Written with `<-`.
    pub fn is_stream(&self) -> bool {
        self.arrow_token().is_some()
    }

    pub fn is_sweep(&self) -> bool {
        self.sweep_token().is_some()
    }
}

/// When embedded code runs relative to its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeSectionKind {
    Pre,
    Post,
}

impl<N: TreeNode> CodeSection<N> {
    /// `pre` or `post`.
    pub fn keyword_token(&self) -> Option<N::Token> {
        self.pre_token().or_else(|| self.post_token())
    }

    pub fn kind(&self) -> CodeSectionKind {
        if self.pre_token().is_some() {
            CodeSectionKind::Pre
        } else {
            CodeSectionKind::Post
        }
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

/// The form of a literal, which is its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralKind {
    String,
    Int,
    Double,
    Bool,
    Constant,
}

impl<N: TreeNode> Literal<N> {
    /// The literal's one token.
    pub fn token(&self) -> Option<N::Token> {
        self.syntax()
            .child_elements()
            .find_map(|element| element.into_token())
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
        Some(unescape(self.string_token()?.text()).into_owned())
    }

    /// The value of an integer literal that fits in 64 bits.
    pub fn int_value(&self) -> Option<i64> {
        self.int_token()?.text().parse().ok()
    }

    /// The value of a boolean literal.
    pub fn bool_value(&self) -> Option<bool> {
        match (self.true_token(), self.false_token()) {
            (Some(_), _) => Some(true),
            (None, Some(_)) => Some(false),
            (None, None) => None,
        }
    }

    /// The name of a constant without its `@`.
    pub fn constant_name(&self) -> Option<String> {
        Some(self.constant_token()?.text()[1..].to_string())
    }
}

impl<N: TreeNode> RefExpr<N> {
    /// The first segment's name: what the reference resolves by.
    pub fn head(&self) -> Option<NameRef<N>> {
        self.segments().next()?.name_ref()
    }

    /// The reference as written, without trivia: `A.outs["x"]`.
    pub fn text(&self) -> String {
        // Room for the node's text, which has trivia inside seldom.
        let mut text = String::with_capacity(self.syntax().text_range().len().into());
        self.syntax().for_each_token(&mut |token| {
            if !token.kind().is_trivia() {
                text.push_str(token.text());
            }
        });
        text
    }
}

#[cfg(test)]
mod tests {
    use super::super::Expr;
    use super::*;
    use crate::green::GreenRef;
    use crate::parse;

    const TEXT: &str = r#"[flow:name = "demo"]
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

    /// Reads every construct through `file`, whatever tree it is over.
    fn read_every_construct<N: TreeNode>(file: SourceFile<N>) {
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
        let dependencies: Vec<_> = step
            .dependency_clauses()
            .flat_map(|c| c.names().map(move |n| (n.text(), c.on_clause().is_some())))
            .collect();
        assert_eq!(
            dependencies,
            [
                ("A".to_string(), false),
                ("B".to_string(), false),
                ("C".to_string(), true)
            ]
        );

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
        assert_eq!(source.text(), r#"A.outs["o\u0041"]"#);
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
        let elements: Vec<_> = list.elements().collect();
        assert_eq!(elements.len(), 2);
        let Expr::List(inner) = &elements[1] else {
            panic!()
        };
        let Some(Expr::Literal(boolean)) = inner.elements().next() else {
            panic!()
        };
        assert_eq!(boolean.kind(), Some(LiteralKind::Bool));
        assert_eq!(boolean.bool_value(), Some(true));

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
    fn accessors_reach_every_construct_of_a_red_tree() {
        read_every_construct(parse(TEXT).tree());
    }

    #[test]
    fn accessors_reach_every_construct_of_a_green_tree() {
        let parse = parse(TEXT);
        let file = SourceFile::cast(GreenRef::root(parse.green())).unwrap();
        read_every_construct(file);
    }

    #[test]
    fn red_and_green_nodes_have_the_same_ranges() {
        let parse = parse(TEXT);
        let red: Vec<_> = parse
            .tree()
            .steps()
            .flat_map(|s| s.params())
            .map(|p| p.syntax().text_range())
            .collect();
        let green_file = SourceFile::cast(GreenRef::root(parse.green())).unwrap();
        let green: Vec<_> = green_file
            .steps()
            .flat_map(|s| s.params())
            .map(|p| p.syntax().text_range())
            .collect();
        assert_eq!(red.len(), 3);
        assert_eq!(red, green);
    }
}
