//! `roadie`: serve the API, or print its OpenAPI document (`roadie openapi`).

use std::process::ExitCode;

/// mimalloc instead of the system allocator: a post allocates and frees many short-lived
/// buffers, and glibc's malloc took a fifth of the service's CPU under load (perf, the
/// load generator at 64 connections).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: roadie                   serve (configuration from ROADIE_* variables; see README)\n       roadie openapi           print the OpenAPI document\n       roadie apps new-key APP  make an API key for app APP: prints the key once, and the\n                                hash line to add to its `api_keys` in the apps file\n       roadie apps check FILE   read an apps file as the server would, and say what is wrong\n       roadie --version         print the version";

#[actix_web::main]
async fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("openapi") => {
            print!("{}", roadie_api::http::openapi::document_json());
            return ExitCode::SUCCESS;
        }
        Some("apps") => return apps(std::env::args().skip(2).collect()),
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

/// `roadie apps ...`: make an API key, or check an apps file.
fn apps(args: Vec<String>) -> ExitCode {
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["new-key", app] => {
            let key = roadie_api::apps::new_key();
            println!("key:  {key}");
            println!("hash: \"{}\"", roadie_api::apps::key_hash_line(&key));
            eprintln!(
                "The key is shown only now: give it to app {app:?}. Add the hash to its `api_keys` in \
                 the apps file, then reload (SIGHUP)."
            );
            ExitCode::SUCCESS
        }
        ["check", file] => match roadie_api::apps::Apps::load(std::path::Path::new(file)) {
            Ok(apps) => {
                println!("{file}: {} apps, ready to serve", apps.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("roadie: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
