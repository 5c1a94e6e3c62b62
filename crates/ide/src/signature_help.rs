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
    let left = token_left_of(&root, offset)?;
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
    // The parameter whose text holds the cursor (its end too: the value
    // being typed), in the application section.
    let under_cursor = left
        .parent_ancestors()
        .take_while(|n| n.kind() != SyntaxKind::PARAM_BLOCK)
        .find_map(ast::Param::cast)
        .filter(|p| {
            p.syntax()
                .parent()
                .and_then(ast::ParamSection::cast)
                .is_some_and(|s| s.kind() == ast::SectionKind::App)
        })
        .filter(|_| left.kind() != SyntaxKind::COMMA);
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
