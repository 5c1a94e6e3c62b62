//! One cold parse of a file, for profilers:
//! `cargo run --release -p easyflow-syntax --example parse_file -- FILE [THREADS] [--digest]`
//! (`valgrind --tool=callgrind --separate-threads=yes`, `--tool=dhat`).
//! The tree is not dropped (a check keeps it). With `--digest`, prints a
//! hash of the whole tree as `debug_tree` shows it and of the errors, so
//! that two builds can be checked to give the same tree.

// As in the binaries that parse (`easyflow`, `easyflow-ls`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let digest = args.iter().any(|arg| arg == "--digest");
    let mut positional = args.iter().filter(|arg| *arg != "--digest");
    let Some(path) = positional.next() else {
        eprintln!("usage: parse_file FILE [THREADS] [--digest]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{path}: {error}");
            std::process::exit(1);
        }
    };
    let threads = match positional.next().map(|threads| threads.parse::<usize>()) {
        None => rayon::current_num_threads(),
        Some(Ok(threads)) if threads > 0 => threads,
        Some(_) => {
            eprintln!("THREADS must be a positive number");
            std::process::exit(2);
        }
    };
    let parse = easyflow_syntax::parse_on_threads(&text, threads);
    print!(
        "{} bytes, {} chunks, {} errors",
        text.len(),
        parse.chunks().len(),
        parse.errors().len()
    );
    if digest {
        let tree = easyflow_syntax::debug_tree(&parse.syntax());
        let errors = format!("{:?}{:?}", parse.errors(), parse.chunks());
        print!(
            ", tree {:032x}, errors and chunks {:032x}",
            easyflow_syntax::item_hash(&tree),
            easyflow_syntax::item_hash(&errors)
        );
    }
    println!();
    // Not dropped: a check keeps the tree, and its drop is not the parse.
    std::process::exit(0);
}
