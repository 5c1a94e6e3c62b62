//! `easyflow-ls`: the EasyFlow language server. `easyflow-ls --stdio` speaks
//! LSP 3.17 over stdin/stdout; logs go to stderr (level from `EASYFLOW_LOG`).

mod background;
mod capabilities;
mod convert;
mod diagnostics;
mod dispatch;
mod folders;
mod handlers;
/// The line index shared with the CLI (`easyflow_syntax::line_index`).
mod line_index {
    pub use easyflow_ide::line_index::LineIndex;
}
mod lsp_ext;
mod memory;
mod path_settings;
mod server;
mod skipped;
mod state;
mod transport;
mod workspace;
mod workspace_diagnostics;

use std::io::Write;
use std::process::ExitCode;

use tower_lsp_server::Server;

// Analysis allocates many small tree nodes; mimalloc handles that pattern
// markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: easyflow-ls [--stdio] | --version | --help

The EasyFlow language server: LSP 3.17 over standard input and output.
Logs go to standard error; set EASYFLOW_LOG (e.g. `debug`, `easyflow_ls=trace`).";

/// How long an idle thread of the blocking pool waits for work before it
/// ends (tokio's default is 10 s): a thread started again costs more than
/// a sleeping one, and each thread's allocator heap keeps memory.
const BLOCKING_KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(120);

/// The threads that compute requests and diagnostics (`dispatch.rs`): a few
/// per core. The work is CPU-bound and cancelled by the next change, so
/// more threads would not answer sooner; tokio's default of 512 let bursts
/// of cancelled requests start hundreds of threads, each with an allocator
/// heap that kept what its requests had allocated.
fn blocking_threads() -> usize {
    std::thread::available_parallelism().map_or(4, |n| n.get() * 4)
}

fn main() -> ExitCode {
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--stdio" => {}
            // A closed stdout or stderr ends these outputs (no panic, as
            // `println!` would): there is nothing else to do.
            "--version" | "-V" => {
                let version = env!("CARGO_PKG_VERSION");
                let _ = writeln!(std::io::stdout(), "easyflow-ls {version}");
                return ExitCode::SUCCESS;
            }
            "--help" | "-h" => {
                let _ = writeln!(std::io::stdout(), "{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                let _ = writeln!(
                    std::io::stderr(),
                    "easyflow-ls: unknown argument `{other}`\n{USAGE}"
                );
                return ExitCode::from(2);
            }
        }
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("EASYFLOW_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(false)
        // A log line that cannot be written is dropped: the fallback, an
        // `eprintln!` of the failure, panics when stderr is a closed pipe.
        .log_internal_errors(false)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(blocking_threads())
        .thread_keep_alive(BLOCKING_KEEP_ALIVE)
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            let _ = writeln!(
                std::io::stderr(),
                "easyflow-ls: cannot start the async runtime: {error}"
            );
            return ExitCode::from(2);
        }
    };
    transport::widen_stdin_pipe();
    let clean_exit = runtime.block_on(async {
        tokio::spawn(memory::return_freed_memory());
        let opened = transport::OpenedTexts::default();
        let (service, socket) = handlers::service(opened.clone());
        let shutdown = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (output, output_failed) = transport::Output::new(tokio::io::stdout());
        let serve = Server::new(
            transport::sanitize(tokio::io::stdin(), shutdown.clone(), opened),
            output,
            socket,
        )
        .serve(service);
        // A closed stdout ends the output, and so the session.
        tokio::select! {
            () = serve => {}
            () = output_failed.notified() => {}
        }
        shutdown.load(std::sync::atomic::Ordering::SeqCst)
    });
    // Blocking analysis tasks may still be running; they hold nothing to flush.
    runtime.shutdown_background();
    // LSP: `exit` after `shutdown` ends with 0, otherwise with 1.
    if clean_exit {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
