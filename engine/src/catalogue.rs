//! Checking game JSON against a ruleset's component catalogue: every id a view, action or
//! event carries must name a component.

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;

use crate::Catalogue;

/// Keys whose strings are not component ids: tags, the phase, printed names next to their id
/// (`name`, `city_name`), free text, and the states and choices of play.
const NOT_IDS: &[&str] = &[
    "type",
    "phase",
    "label",
    "reason",
    "to",
    "pile",
    "purpose",
    "kind",
    "name",
    "city_name",
    "step",
    "variant",
    "ending",
    "market",
    "by",
    "payer",
];

/// Keys whose strings are printed names in one ruleset and ids in another.
const NAMES_IN: &[(&str, &str)] = &[];

/// A ruleset's catalogue ids, and the keys of its JSON that hold something else.
pub struct IdCheck {
    known: HashSet<String>,
    skip: Vec<&'static str>,
}

impl IdCheck {
    /// The check for `ruleset`, against `catalogue` (normally the ruleset's own).
    pub fn new(ruleset: &str, catalogue: &Catalogue) -> Self {
        let mut skip = NOT_IDS.to_vec();
        skip.extend(
            NAMES_IN
                .iter()
                .filter(|(slug, _)| *slug == ruleset)
                .map(|(_, key)| *key),
        );
        IdCheck {
            known: ids(catalogue),
            skip,
        }
    }

    /// Adds to `missing` the strings of `value` (a view, an action, an event) that name no
    /// component, each as `key: string` (the key that holds it).
    pub fn unresolved(&self, value: &Value, missing: &mut BTreeSet<String>) {
        self.walk("", value, missing);
    }

    fn walk(&self, key: &str, value: &Value, missing: &mut BTreeSet<String>) {
        match value {
            Value::String(s) if !self.known.contains(s) => {
                missing.insert(format!("{key}: {s}"));
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(key, v, missing)),
            Value::Object(map) => {
                for (key, v) in map {
                    if !self.skip.contains(&key.as_str()) {
                        self.walk(key, v, missing);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Every id of the catalogue, whatever its kind, as the wire spells it.
pub fn ids(catalogue: &Catalogue) -> HashSet<String> {
    catalogue
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|entry| match entry.get("id") {
            Some(Value::String(id)) => Some(id.clone()),
            Some(other) => Some(other.to_string()),
            None => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;
    use crate::{AnyGame, RULESETS, Seat, Viewer};

    fn json(raw: &serde_json::value::RawValue) -> Value {
        serde_json::from_str(raw.get()).expect("engine JSON")
    }

    /// Plays `games` random games of `slug` and returns every string of their views (every seat
    /// and the spectator), listed actions and events that `known` does not resolve.
    fn missing_ids(slug: &str, check: &IdCheck, games: u64) -> BTreeSet<String> {
        let ruleset = crate::Ruleset::find(slug).expect("registered");
        let mut missing = BTreeSet::new();
        for seed in 0..games {
            let seats = ruleset.seats.start() + (seed as usize % ruleset.seats.clone().count());
            let (mut game, events) = AnyGame::setup(slug, None, seats, seed).expect("setup");
            for e in &events {
                check.unresolved(&json(&e.body), &mut missing);
            }
            let mut rng = GameRng::new(seed ^ 0x5eed);
            for step in 0..50_000 {
                let to_act = game.to_act();
                if to_act.is_empty() {
                    break;
                }
                if step % 7 == 0 {
                    for viewer in Seat::all(seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                        check.unresolved(&json(&game.view(viewer)), &mut missing);
                    }
                }
                let seat = to_act[rng.below(to_act.len())];
                let actions = game.legal_action_list(seat);
                for a in &actions {
                    check.unresolved(&json(a), &mut missing);
                }
                let action = actions[rng.below(actions.len())].get().to_owned();
                for e in game.apply(seat, &action).expect("a listed action is legal") {
                    check.unresolved(&json(&e.body), &mut missing);
                }
            }
            for viewer in Seat::all(seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                check.unresolved(&json(&game.view(viewer)), &mut missing);
            }
        }
        missing
    }

    #[test]
    fn every_id_in_views_actions_and_events_of_random_games_resolves_in_the_catalogue() {
        let mut failures = Vec::new();
        for ruleset in RULESETS {
            let check = IdCheck::new(ruleset.slug, &(ruleset.components)());
            let missing = missing_ids(ruleset.slug, &check, 12);
            if !missing.is_empty() {
                failures.push(format!("{}: not in the catalogue: {missing:?}", ruleset.slug));
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// The check above can fail: with one kind taken out of each catalogue, its ids are missed.
    #[test]
    fn an_id_missing_from_the_catalogue_is_found() {
        for ruleset in RULESETS {
            let mut catalogue = (ruleset.components)();
            let kind = catalogue.keys().next().cloned().expect("a kind");
            let removed = ids(&catalogue);
            catalogue.remove(&kind);
            let missing = missing_ids(ruleset.slug, &IdCheck::new(ruleset.slug, &catalogue), 2);
            assert!(
                missing
                    .iter()
                    .any(|m| removed.iter().any(|id| m.ends_with(&format!(": {id}")))),
                "{}: taking out {kind} went unnoticed",
                ruleset.slug
            );
        }
    }

    #[test]
    fn every_entry_has_an_id_and_a_name_and_ids_are_unique_within_a_kind() {
        for ruleset in RULESETS {
            for (kind, entries) in &(ruleset.components)() {
                assert!(kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{kind}");
                let entries = entries.as_array().expect("a kind lists entries");
                assert!(!entries.is_empty(), "{}: {kind} is empty", ruleset.slug);
                let mut seen = HashSet::new();
                for entry in entries {
                    assert!(entry["name"].is_string(), "{}: {entry}", ruleset.slug);
                    let id = entry["id"].to_string();
                    assert!(entry["id"].is_string() || entry["id"].is_u64(), "{entry}");
                    if kind != "die_faces" {
                        assert!(seen.insert(id), "{}: {kind} repeats {entry}", ruleset.slug);
                    }
                }
            }
        }
    }
}
