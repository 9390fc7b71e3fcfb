//! A restart of the service mid-game loses nothing: the game lives in Redis.

use roadie_engine::Viewer;

use crate::play::{Checks, Table};
use crate::support::{Redis, Roadie, rulesets};

#[test]
fn a_restart_mid_game_loses_nothing() {
    let redis = Redis::start();
    let roadie = Roadie::start("restart", Some(&redis), &[]);
    let (slug, min, _) = rulesets(&roadie).into_iter().next().expect("a ruleset");
    let mut table = Table::new(&roadie, &slug, min, 4242);
    for _ in 0..25 {
        if !table.step(Checks::Acting) {
            break;
        }
    }
    let snapshot = |roadie: &Roadie, table: &Table| {
        (0..table.seats)
            .map(Some)
            .chain([None])
            .map(|seat| {
                (
                    roadie.game(&table.created, seat).body,
                    roadie.events(&table.created, seat),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = snapshot(&roadie, &table);
    assert!(table.steps > 0, "no action was played before the restart");
    roadie.restart();
    let after = snapshot(&roadie, &table);
    assert_eq!(before, after, "the restart changed the game");
    for viewer in roadie_engine::Seat::all(table.seats).map(Viewer::Seat) {
        table.check_view(viewer);
    }
    table.play_to_end(Checks::Acting);
    table.check_finished();
}
