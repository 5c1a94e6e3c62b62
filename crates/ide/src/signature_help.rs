//! Signature help inside a step's parentheses, with a package catalog: the
//! package's parameters (required first), the active one the parameter
//! under the cursor.

use easyflow_db::{Db, SourceFile, parse};
use easyflow_diagnostics::TextSize;
use easyflow_syntax::SyntaxKind;
use easyflow_syntax::ast::{self, AstNode};

use crate::tokens::token_left_of;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    /// `ORCA.DFT(input: File, charge: Int (-10..=10), …)`.
    pub label: String,
    /// Markdown: the package's description.
    pub documentation: Option<String>,
    pub parameters: Vec<SignatureParameter>,
    /// Index into `parameters` of the parameter under the cursor.
    pub active_parameter: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureParameter {
    /// Its part of the signature's label, `charge: Int (-10..=10)`.
    pub label: String,
    /// Markdown: required, default, description.
    pub documentation: String,
}

/// The signature of the package whose step's parentheses hold `offset`.
pub fn signature_help(db: &dyn Db, file: SourceFile, offset: TextSize) -> Option<SignatureHelp> {
    if offset > file.text(db).len() {
        return None;
    }
    let catalog = easyflow_db::catalog::catalog_of(db, file)?;
    let root = parse(db, file).syntax();
    // The code before the cursor decides: the trivia after an unclosed
    // list at the end of the file lie outside it.
    let left = std::iter::successors(token_left_of(&root, offset), |t| t.prev_token())
        .find(|t| !t.kind().is_trivia())?;
    let block = left.parent_ancestors().find_map(ast::ParamBlock::cast)?;
    let open = block.l_paren_token()?;
    let inside = open.text_range().end() <= offset
        && block
            .r_paren_token()
            .is_none_or(|close| offset <= close.text_range().start());
    if !inside {
        return None;
    }
    let step = block.syntax().parent().and_then(ast::Step::cast)?;
    let package = catalog.package(&step.package()?.syntax().text().to_string())?;
    let params: Vec<&easyflow_catalog::Param> = package.params_required_first().collect();
    let parameters: Vec<SignatureParameter> = params
        .iter()
        .map(|p| SignatureParameter {
            label: p.label(),
            documentation: crate::catalog::param_markdown(p),
        })
        .collect();
    let labels: Vec<&str> = parameters.iter().map(|p| p.label.as_str()).collect();
    let label = format!("{}({})", package.name, labels.join(", "));
    let under_cursor = param_at(&block, offset);
    let active_parameter = under_cursor
        .and_then(|p| p.name())
        .and_then(|name| params.iter().position(|p| p.name == name.text()))
        .map(|i| i as u32);
    Some(SignatureHelp {
        label,
        documentation: package.description.clone(),
        parameters,
        active_parameter,
    })
}

/// The parameter of the application section whose name or value the cursor
/// is in: the last one that starts before it with no `,` between. Its value
/// may be missing (`method = |)`) or broken (`method = B3 LYP|`, an error
/// after the parameter): the user is typing it.
fn param_at(block: &ast::ParamBlock, offset: TextSize) -> Option<ast::Param> {
    let section = block
        .syntax()
        .children()
        .filter_map(ast::ParamSection::cast)
        .take_while(|s| s.syntax().text_range().start() < offset)
        .last()?;
    if section.kind() != ast::SectionKind::App {
        return None;
    }
    let mut param = None;
    for element in section.syntax().children_with_tokens() {
        if element.text_range().start() >= offset {
            break;
        }
        match element.kind() {
            SyntaxKind::PARAM => param = element.into_node().and_then(ast::Param::cast),
            SyntaxKind::ERROR_NODE => {}
            kind if kind.is_trivia() => {}
            // A `,` (the next parameter is not chosen yet), or a label.
            _ => param = None,
        }
    }
    param
}
