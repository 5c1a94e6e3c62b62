//! Reading the files the commands are given: through `easyflow_db::disk`
//! (regular files only, within their kind's size limit), or standard input.

use std::io::Read;
use std::path::Path;

use easyflow_db::disk::{self, FileKind};

/// Reads a source file, from standard input for `-`. Errors name the file.
pub fn read_source(path: &Path) -> Result<String, String> {
    if path != Path::new("-") {
        return disk::read(path, FileKind::of(path)).map_err(|e| e.to_string());
    }
    let limit = FileKind::Flow.limit();
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("<stdin>: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "<stdin>: over the limit of {} MiB for a flow",
            limit >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "<stdin>: not valid UTF-8 (invalid byte at offset {}); EasyFlow files are UTF-8 text",
            e.utf8_error().valid_up_to()
        )
    })
}
