//! The games Roadie ships, one folder each, every folder in the same template so that a reader
//! who knows one game finds anything in another:
//!
//! - `mod.rs`: the module list and `impl Game`, which forwards to the same names in every game
//!   (`events::ANNOUNCEMENTS`, `setup::new_game`, `seats`, `seats_to_act`, `is_to_act`, `legal`,
//!   `check`, `play`, `view_for`, `phase_name`, `scored`, `machine::machine`,
//!   `components::catalogue`, `hidden_from`, `invariants`, `bot::greedy`, `determinized`);
//! - `state.rs`: the position and its state enum, `Stage`;
//! - `setup.rs`: `new_game`, the game's setup;
//! - `actions.rs`: what a seat posts, and the game `Options`;
//! - `rules/`: who acts and the legal actions in `mod.rs`, what each decision does in its own module;
//! - `events.rs`: what a game reports, every change a typed event, and its `ANNOUNCEMENTS` table
//!   (which event announces which view field);
//! - `view.rs`: what one viewer sees;
//! - `scoring.rs`: the final score and the `Outcome`;
//! - `machine.rs`: the phase machine as data, and `phase_name`;
//! - `invariants.rs`: what must always hold, and the secrets no viewer may see;
//! - `bot.rs`: `greedy`, the greedy bot's heuristic, reading only the seat's view and legal actions;
//! - `scenario.rs`: `Scenario`, the public builder of test positions: each step moves a component
//!   from wherever it lies and the build checks the game's invariants, so tests never write the
//!   position's private fields;
//! - `determinize.rs`: `determinized`, a position one seat cannot tell apart from the real one
//!   (its hidden parts drawn anew from what that seat cannot see), for the expert bot's search;
//! - `components.rs`: the cards and tables as data, and each ruling's constant;
//! - `RULES.md`: the rules as served, one a line (`- ID: **Title.** Text`): a "how to play"
//!   overview, then every ruling id the game cites;
//! - `texts.rs`: `EFFECTS`, what each component does (the catalogue's `text`), and `MESSAGES`, a
//!   sentence template for each event type (see [`crate::texts`]);
//! - `tests/`: one test per rule and ruling;
//! - optional: `components.json`, the component tables as data (the template test in
//!   `conformance/template.rs` says why).
//!
//! A new game is a folder in this shape and one line in the registry: the registry's conformance
//! test and the benches then cover it.

pub mod rock_the_world;
pub mod show_business;
pub mod shrewd_producer;

#[cfg(test)]
mod rules_references {
    //! Every ruling id a game's code cites (`G9`, `R25`, `S36`) resolves in that game folder's
    //! `RULES.md`, so a reader never needs a file outside the repository.

    use std::collections::BTreeSet;
    use std::fs;
    use std::path::{Path, PathBuf};

    /// The ids cited in `text`.
    fn cited_ids(text: &str) -> BTreeSet<String> {
        crate::texts::cited_ids(text).into_iter().collect()
    }

    /// The ids a `RULES.md` explains: each line `- ID: what it decides`.
    fn listed_ids(text: &str) -> BTreeSet<String> {
        text.lines()
            .filter_map(|line| line.strip_prefix("- ")?.split_once(": "))
            .map(|(id, _)| id.to_owned())
            .collect()
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("a readable folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn cited_ids_are_whole_words() {
        let ids = cited_ids("G9: R25/R43 (S36) but not R200a, GS1, S123 or x_R2");
        assert_eq!(ids, ["G9", "R25", "R43", "S36"].map(String::from).into());
    }

    #[test]
    fn every_ruling_a_game_cites_is_in_its_rules_reference() {
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
        let mut checked = 0;
        for entry in fs::read_dir(&games).expect("the games folder").flatten() {
            let folder = entry.path();
            if !folder.is_dir() {
                continue;
            }
            let reference = folder.join("RULES.md");
            let listed = listed_ids(
                &fs::read_to_string(&reference).unwrap_or_else(|e| panic!("{}: {e}", reference.display())),
            );
            let mut files = Vec::new();
            rust_files(&folder, &mut files);
            for file in files {
                let text = fs::read_to_string(&file).expect("a readable source file");
                let missing: Vec<String> = cited_ids(&text).difference(&listed).cloned().collect();
                assert!(
                    missing.is_empty(),
                    "{} cites {missing:?}, which {} does not explain",
                    file.display(),
                    reference.display()
                );
            }
            checked += 1;
        }
        assert_eq!(checked, crate::RULESETS.len(), "one folder per registered game");
    }
}
