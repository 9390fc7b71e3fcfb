//! Engine benchmarks (filled in with the games).
fn main() {}
