//! What the process writes to its log when stderr is not a terminal (a file, a collector).

use crate::support::Roadie;

#[test]
fn a_log_written_to_a_file_carries_no_colour_codes() {
    let roadie = Roadie::start("logs_plain", None, &[("RUST_LOG", "debug")]);
    roadie.create("shrewd-producer", 3, Some(1));
    roadie.get("/v1/games/nothing-here", None);
    roadie.stop();
    let log = roadie.log_text();
    assert!(log.contains("roadie listening"), "{log}");
    assert!(!log.contains('\u{1b}'), "ANSI escape codes in the log:\n{log}");
}
