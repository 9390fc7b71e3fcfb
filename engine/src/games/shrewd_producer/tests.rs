//! Shrewd Producer: one test per rule and ruling, the rulebook's worked examples, and the
//! conformance suite.

use super::*;
use crate::conformance::{self, Config};

#[test]
fn conformance_smoke() {
    let report = conformance::run::<ShrewdProducer>(
        &Config {
            games: 50,
            seed: 1,
            max_steps: 20_000,
            exhaustive: true,
        },
        |i| 3 + i % 2,
        |i| Options {
            dual_fills_both: i % 4 < 2,
            ..Options::default()
        },
    )
    .expect("conformance");
    eprintln!("{report:?}");
}
