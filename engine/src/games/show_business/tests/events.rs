//! Every change is a typed event: in careful seeded games, each public field of the spectator's
//! view that changes in a step is announced by a public event of that step, as Show Business's
//! announcements table says, and the check fails once an event is removed.

use super::*;
use crate::Game;
use crate::conformance::announcements::{record, removal_caught};

#[test]
fn every_public_view_change_is_announced_by_a_typed_event_and_removing_one_is_caught() {
    let steps = record::<ShowBusiness>(24, 900, |i| 2 + i % 4, options_for, &mut careful)
        .unwrap_or_else(|e| panic!("{e}"));
    for gone in [
        "paid",
        "earned",
        "popularity",
        "satisfaction",
        "die_shows",
        "market_refilled",
        "time_lapse",
        "rondel_moved",
        "token_to_map",
        "drew",
        "field_discarded",
    ] {
        if let Err(e) = removal_caught(&steps, &ShowBusiness::ANNOUNCEMENTS, gone) {
            panic!("{e}");
        }
    }
}
