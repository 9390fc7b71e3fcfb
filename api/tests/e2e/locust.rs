//! The Locust file of docs/load-testing.md (`tests/locust/locustfile.py`) plays whole games, one
//! simulated user per seat, headless for a few seconds against a real `roadie` on Redis, all on
//! loopback: any failed request, any error in the file, or no action posted fails the test.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Redis, Roadie, python, scratch};

/// The rows of Locust's `<prefix>_stats.csv`: name to (requests, failures).
fn stats(csv: &str) -> Vec<(String, u64, u64)> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header row").split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim_matches('"') == name)
            .unwrap_or_else(|| panic!("no {name} column in {header:?}"))
    };
    let (kind, name, requests, failures) = (
        column("Type"),
        column("Name"),
        column("Request Count"),
        column("Failure Count"),
    );
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').map(|c| c.trim_matches('"')).collect();
            let number = |i: usize| {
                cells[i]
                    .parse::<u64>()
                    .unwrap_or_else(|_| panic!("not a count: {line}"))
            };
            (
                format!("{} {}", cells[kind], cells[name]).trim().to_owned(),
                number(requests),
                number(failures),
            )
        })
        .collect()
}

#[test]
fn the_locust_file_plays_whole_games_without_an_error() {
    let redis = Redis::start();
    let roadie = Roadie::start("locust", Some(&redis), &[]);
    let dir = scratch("locust");
    let locustfile = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/locust/locustfile.py");
    let mut child = Command::new(python())
        .args(["-m", "locust", "-f"])
        .arg(&locustfile)
        .args([
            "--headless",
            "-u",
            "6",
            "-r",
            "6",
            "-t",
            "5s",
            "--exit-code-on-error",
            "1",
        ])
        .args(["--only-summary", "--csv", "locust", "--host", &roadie.base])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run locust");
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(status) = child.try_wait().expect("locust's status") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("locust did not stop within 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().expect("locust's output");
    let report = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(status.success(), "locust failed ({status}):\n{report}");
    let csv = std::fs::read_to_string(dir.join("locust_stats.csv")).expect("locust_stats.csv");
    let rows = stats(&csv);
    let failed: Vec<_> = rows.iter().filter(|(_, _, failures)| *failures > 0).collect();
    assert!(failed.is_empty(), "failed requests {failed:?}:\n{report}");
    let posts = rows
        .iter()
        .find(|(name, _, _)| name == "POST /v1/games/[id]/actions")
        .map_or(0, |row| row.1);
    assert!(posts > 0, "no action was posted:\n{report}");
}
