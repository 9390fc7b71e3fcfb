//! `roadie`: serve the API, or print its OpenAPI document (`roadie openapi`).

use std::process::ExitCode;

const USAGE: &str = "usage: roadie            serve (configuration from ROADIE_* variables; see README)\n       roadie openapi    print the OpenAPI document";

#[actix_web::main]
async fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("openapi") => {
            print!("{}", roadie_api::openapi::document_json());
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
