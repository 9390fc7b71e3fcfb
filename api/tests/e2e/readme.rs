//! The guides' walk-throughs run against a started server, so they cannot rot.
//!
//! A fenced block marked `sh` is runnable: the `sh` blocks of the top-level README.md and of
//! every docs/*.md run here, each file's blocks in order as one `bash -euo pipefail` script,
//! against one `roadie` on Redis whose address is in `ROADIE` (with
//! `ROADIE_WEBHOOK_HOSTS=127.0.0.1:9`, which the webhook example needs). Blocks marked
//! `console` (commands to type: servers, installs, long runs), `text`, or a language's name are
//! examples and are not run; docs/README.md says so too, and `api/tests/api/docs.rs` refuses
//! any other fence.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{Redis, Roadie};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// README.md, then every docs/*.md by name.
fn guides() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry of docs/").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut all = vec![root().join("README.md")];
    all.extend(docs);
    all
}

/// The `sh` blocks of `text`, in order, as one script.
fn runnable(text: &str) -> String {
    let mut script = String::new();
    let mut inside = false;
    for line in text.lines() {
        if inside && line.trim_start().starts_with("```") {
            inside = false;
        } else if inside {
            script.push_str(line);
            script.push('\n');
        } else if line.trim() == "```sh" {
            inside = true;
        }
    }
    script
}

/// What each guide's blocks must print: proof that they did what they say.
const EXPECTED: &[(&str, &[&str])] = &[
    ("README.md", &["\"version\": 2"]),
    ("api.md", &[r#"{"tag":"games","operations":9}"#]),
    (
        "integrating.md",
        &[
            "\"version\": 2",
            "unchanged: 304",
            "attempt 1: applied",
            "idempotent-replayed: true",
            r#"{"type":"seat_taken","seat":1,"name":"Ann"}"#,
            r#"{"status":"finished""#,
            r#"{"status":404,"code":"game_not_found"}"#,
            r#"{"status":401,"code":"app_required"}"#,
            r#"{"seat":0,"status":"active"}"#,
            r#"{"mine":1}"#,
            r#"{"status":"aborted"}"#,
        ],
    ),
    ("operating.md", &["roadie_games_created_total"]),
    ("playing.md", &[r#""level":"expert""#]),
];

#[test]
fn the_guides_runnable_blocks_play_against_a_real_server() {
    crate::support::ensure_installed("/usr/bin/jq", "jq");
    let redis = Redis::start();
    let roadie = Roadie::start("readme", Some(&redis), &[("ROADIE_WEBHOOK_HOSTS", "127.0.0.1:9")]);
    let mut ran = Vec::new();
    for path in guides() {
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let script = runnable(&std::fs::read_to_string(&path).expect("a readable guide"));
        if script.is_empty() {
            continue;
        }
        let output = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .env("ROADIE", &roadie.base)
            .env("ROADIE_BIN", crate::support::roadie_binary())
            .env("MINT_PYTHON", crate::support::python())
            .env("APPS_PORT", crate::support::free_port().to_string())
            .output()
            .expect("run bash");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "{name}: the runnable blocks failed:\n{stdout}\n{stderr}"
        );
        let expected = EXPECTED
            .iter()
            .find(|(file, _)| *file == name)
            .map_or(&[][..], |e| e.1);
        for want in expected {
            assert!(
                stdout.to_lowercase().contains(&want.to_lowercase()),
                "{name}: the runnable blocks did not print {want}:\n{stdout}"
            );
        }
        ran.push(name);
    }
    for (file, _) in EXPECTED {
        assert!(
            ran.iter().any(|name| name == file),
            "{file} has no runnable block any more: {ran:?}"
        );
    }
}
