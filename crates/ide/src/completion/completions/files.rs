//! In expression position: the required files (each name once; not those
//! that are also steps).

use easyflow_db::{item_index, name_resolution};

use super::super::context::CompletionContext;
use super::super::{CompletionItem, CompletionKind, DocumentationOf, Insert};

pub(crate) fn complete(ctx: &CompletionContext<'_>) -> Vec<CompletionItem> {
    let index = item_index(ctx.db, ctx.file);
    let resolution = name_resolution(ctx.db, ctx.file);
    index
        .requires
        .iter()
        .enumerate()
        .filter(|(i, name)| {
            resolution.names.files_by_name.get(*name) == Some(&(*i as u32))
                && !resolution.names.steps_by_name.contains_key(name.as_str())
        })
        .map(|(_, name)| {
            ctx.item(name, CompletionKind::File, Insert::Text(name.clone()))
                .detail(Some("required file".to_string()))
                .documentation_of(DocumentationOf::File(name.clone()))
        })
        .collect()
}
