//! Compiles the generated parsers (and the flow grammar's external scanner).

use std::path::Path;

fn main() {
    compile("easyflow", "tree-sitter-easyflow", true);
    compile("topology", "tree-sitter-easyflow-topology", false);
}

fn compile(grammar: &str, library: &str, has_scanner: bool) {
    let src = Path::new(grammar).join("src");
    let mut build = cc::Build::new();
    build
        .std("c11")
        .include(&src)
        // Generated code: its warnings are tree-sitter's, not ours.
        .warnings(false);
    #[cfg(target_env = "msvc")]
    build.flag("-utf-8");
    let mut files = vec![src.join("parser.c")];
    if has_scanner {
        files.push(src.join("scanner.c"));
    }
    for file in &files {
        build.file(file);
        println!("cargo:rerun-if-changed={}", file.display());
    }
    println!(
        "cargo:rerun-if-changed={}",
        src.join("tree_sitter").display()
    );
    build.compile(library);
}
