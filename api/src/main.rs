//! The `roadie` binary (the service lands with its own issue).
fn main() {}
