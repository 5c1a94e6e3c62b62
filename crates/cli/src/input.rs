//! Reading the files the commands are given.

use std::path::Path;

/// Reads a source file, from standard input for `-`. Errors name the file.
pub fn read_source(path: &Path) -> Result<String, String> {
    let bytes = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map(|_| bytes)
            .map_err(|e| format!("<stdin>: cannot read: {e}"))?
    } else {
        std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?
    };
    if u32::try_from(bytes.len()).is_err() {
        return Err(format!(
            "{}: files over 4 GiB are not supported",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not valid UTF-8 (invalid byte at offset {}); EasyFlow files are UTF-8 text",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}
