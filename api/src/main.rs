//! `roadie`: serve the API, or print its OpenAPI document (`roadie openapi`).

use std::process::ExitCode;

/// mimalloc instead of the system allocator: a post allocates and frees many short-lived
/// buffers, and glibc's malloc took a fifth of the service's CPU under load (perf, the
/// load generator at 64 connections).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: roadie            serve (configuration from ROADIE_* variables; see README)\n       roadie openapi    print the OpenAPI document\n       roadie --version  print the version";

#[actix_web::main]
async fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("openapi") => {
            print!("{}", roadie_api::http::openapi::document_json());
            return ExitCode::SUCCESS;
        }
        Some("-V" | "--version" | "version") => {
            println!("roadie {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => {
            eprintln!("unknown argument {other:?}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    match roadie_api::serve().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("roadie: {e}");
            ExitCode::FAILURE
        }
    }
}
