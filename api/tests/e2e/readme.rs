//! The README's curl walk-through runs against a started server, so it cannot rot.

use std::process::Command;

use crate::support::Roadie;

/// The ```sh blocks of README.md, in order.
fn walkthrough() -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README.md");
    let mut script = String::new();
    let mut inside = false;
    for line in readme.lines() {
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

#[test]
fn the_readme_walkthrough_plays_against_a_real_server() {
    let script = walkthrough();
    assert!(script.contains("curl"), "the README has no ```sh walk-through");
    crate::support::ensure_installed("/usr/bin/jq", "jq");
    let roadie = Roadie::start("readme", None, &[("ROADIE_WEBHOOK_HOSTS", "127.0.0.1:9")]);
    let output = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("ROADIE", &roadie.base)
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the walk-through failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("\"version\": 2"),
        "the walk-through did not apply an action:\n{stdout}"
    );
    assert!(
        stdout.contains("unchanged: 304"),
        "polling with the ETag did not answer 304:\n{stdout}"
    );
    assert!(
        stdout.contains(r#"{"type":"seat_taken","seat":1,"name":"Ann"}"#),
        "the join was not announced:\n{stdout}"
    );
    assert!(
        stdout.contains(r#"{"status":"finished""#),
        "the game against three bots did not end:\n{stdout}"
    );
}
