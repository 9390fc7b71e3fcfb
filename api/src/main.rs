//! `roadie`: serve the API, or print its OpenAPI document (`roadie openapi`).

use std::process::ExitCode;

/// mimalloc instead of the system allocator: a post allocates and frees many short-lived
/// buffers, and glibc's malloc took a fifth of the service's CPU under load (perf, the
/// load generator at 64 connections).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: roadie                   serve (configuration from ROADIE_* variables; see README)\n       roadie openapi           print the OpenAPI document\n       roadie apps new-key APP  make an API key for app APP: prints the key once, and the\n                                hash line to add to its `api_keys` in the apps file\n       roadie apps check FILE   read an apps file as the server would, and say what is wrong\n       roadie verify RECORD [JWKS]\n                                play a game record (JSON file) again and check it; with a\n                                JWK Set file (or ROADIE_RECORD_KEY), its signature too\n       roadie records new-key   print a new Ed25519 key (PEM) for ROADIE_RECORD_KEY\n       roadie --version         print the version";

#[actix_web::main]
async fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        None => {}
        Some("openapi") => {
            print!("{}", roadie_api::http::openapi::document_json());
            return ExitCode::SUCCESS;
        }
        Some("apps") => return apps(std::env::args().skip(2).collect()),
        Some("verify") => return verify(std::env::args().skip(2).collect()),
        Some("records") => return records(std::env::args().skip(2).collect()),
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

/// `roadie verify RECORD [JWKS]`: a record played again, as `POST /v1/records/verify` does; the
/// verdict is printed as JSON, and the exit status is 0 only when every check held.
fn verify(args: Vec<String>) -> ExitCode {
    let (record, jwks) = match args.as_slice() {
        [record] => (record, None),
        [record, jwks] => (record, Some(jwks)),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let read = |path: &str| -> Result<serde_json::Value, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        serde_json::from_str(&text).map_err(|e| format!("{path}: not JSON: {e}"))
    };
    let keys = match (jwks, std::env::var("ROADIE_RECORD_KEY").ok()) {
        (Some(path), _) => read(path).and_then(|jwks| roadie_api::records::KnownKeys::from_jwks(&jwks)),
        (None, Some(pem)) => {
            roadie_api::records::RecordKeys::load(pem.trim()).map(|keys| keys.known().clone())
        }
        (None, None) => Ok(roadie_api::records::KnownKeys::default()),
    };
    let checked = keys.and_then(|keys| {
        let record = read(record)?;
        let record: roadie_api::records::Record =
            serde_json::from_value(record).map_err(|e| format!("not a game record: {e}"))?;
        Ok(roadie_api::records::verify(&record, &keys, None))
    });
    match checked {
        Ok(verdict) => {
            println!("{}", serde_json::to_string_pretty(&verdict).unwrap_or_default());
            if verdict.ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("roadie: {e}");
            ExitCode::from(2)
        }
    }
}

/// `roadie records new-key`: a new key to sign game records with, as PEM.
fn records(args: Vec<String>) -> ExitCode {
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["new-key"] => match roadie_api::records::RecordKeys::generate().pem() {
            Ok(pem) => {
                print!("{pem}");
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
