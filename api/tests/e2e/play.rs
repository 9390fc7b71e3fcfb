//! Plays games over HTTP while a local copy of the engine replays the same moves, so every
//! response can be checked against the truth: views, legal actions, events and secrets.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use roadie_engine::{AnyGame, Seat, Viewer};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::{Created, Roadie};

/// Steps after which a game that has not ended fails the test.
pub const MAX_STEPS: usize = 20_000;

/// Steps after which [`Checks::Everyone`] looks at whole views only every tenth step.
pub const FULL_VIEW_STEPS: usize = 400;

pub fn json(raw: &serde_json::value::RawValue) -> Value {
    serde_json::from_str(raw.get()).expect("engine JSON")
}

/// How much to check after each step.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Checks {
    /// The acting seat's view, legal actions and the response.
    Acting,
    /// Also every seat's and the spectator's view and new events, against the engine's secrets.
    Everyone,
}

/// A game being played over HTTP, mirrored locally.
pub struct Table<'a> {
    pub roadie: &'a Roadie,
    pub created: Created,
    pub local: AnyGame,
    pub seed: u64,
    pub slug: String,
    pub seats: usize,
    /// Every event the local engine produced, in order (setup included).
    pub local_events: Vec<Value>,
    /// Per viewer (seats, then the spectator): how far its event log was read.
    read: Vec<u64>,
    rng: StdRng,
    pub steps: usize,
}

impl<'a> Table<'a> {
    pub fn new(roadie: &'a Roadie, slug: &str, seats: usize, seed: u64) -> Self {
        let created = roadie.create(slug, seats, Some(seed));
        let (local, events) = AnyGame::setup(slug, None, seats, seed).expect("local setup");
        Table {
            roadie,
            created,
            local,
            seed,
            slug: slug.to_owned(),
            seats,
            local_events: events.iter().map(|e| json(&e.body)).collect(),
            read: vec![0; seats + 1],
            rng: StdRng::seed_from_u64(seed ^ 0x5eed),
            steps: 0,
        }
    }

    /// Plays one action of a seat that may act. `false` once the game is over.
    pub fn step(&mut self, checks: Checks) -> bool {
        let spectator = self.roadie.game(&self.created, None);
        assert_eq!(spectator.status, 200, "{}", spectator.body);
        let to_act: Vec<Seat> = serde_json::from_value(spectator.json["to_act"].clone()).expect("to_act");
        assert_eq!(to_act, self.local.to_act(), "to_act differs from the engine's");
        if spectator.json["status"] == "finished" {
            assert!(self.local.is_over());
            return false;
        }
        assert!(
            !to_act.is_empty(),
            "{}: an active game with nobody to act: {}",
            self.slug,
            spectator.body
        );
        let seat = to_act[self.rng.random_range(0..to_act.len())];
        let actions = self.roadie.actions(&self.created, seat.index());
        let local_actions = json(&self.local.legal_actions(seat));
        assert_eq!(
            Value::Array(actions.clone()),
            local_actions,
            "legal actions differ"
        );
        assert!(!actions.is_empty(), "seat {seat} is to act with no legal action");
        let action = actions[self.rng.random_range(0..actions.len())].clone();
        let version_before = spectator.json["version"].as_u64().expect("version");
        let reply = self.roadie.act(&self.created, seat.index(), &action);
        assert_eq!(
            reply.status, 200,
            "posting {action} for seat {seat}: {}",
            reply.body
        );
        assert_eq!(reply.json["version"], version_before + 1);
        let revision = reply.json["revision"].as_str().expect("a revision");
        assert!(
            revision.starts_with(&format!("{}.", version_before + 1)),
            "{revision}"
        );
        assert_eq!(reply.header("etag"), Some(format!("\"{revision}\"").as_str()));
        let events = self
            .local
            .apply(seat, &action.to_string())
            .expect("the engine accepts it too");
        let first_seq = self.local_events.len() as u64 + 1;
        self.local_events.extend(events.iter().map(|e| json(&e.body)));
        let finished = self.local.is_over();
        let seen: Vec<(u64, Value)> = (first_seq..)
            .zip(events.iter())
            .filter(|(_, e)| e.audience.admits(Viewer::Seat(seat), finished))
            .map(|(seq, e)| (seq, json(&e.body)))
            .collect();
        let replied: Vec<(u64, Value)> = reply.json["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| (e["seq"].as_u64().expect("seq"), e["body"].clone()))
            .collect();
        assert_eq!(
            replied, seen,
            "the post's events are not the seat's share of the engine's"
        );
        assert_eq!(
            reply.json["game"]["view"],
            json(&self.local.view(Viewer::Seat(seat)))
        );
        self.assert_no_secret(Viewer::Seat(seat), &reply.body, "the post's response");
        self.steps += 1;
        if checks == Checks::Everyone {
            // Every viewer's new events after every step; their whole views after each of the
            // first steps and every tenth step after that (views are large: this keeps long
            // games quick).
            let views = self.steps <= FULL_VIEW_STEPS || self.steps.is_multiple_of(10);
            for viewer in Seat::all(self.seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                if views {
                    self.check_view(viewer);
                }
                self.check_new_events(viewer);
            }
        }
        true
    }

    /// Plays until the game ends.
    pub fn play_to_end(&mut self, checks: Checks) {
        while self.step(checks) {
            assert!(
                self.steps < MAX_STEPS,
                "{} did not end in {MAX_STEPS} steps",
                self.slug
            );
        }
    }

    /// The viewer's view equals the engine's; its view and the events since it last looked
    /// hold none of its secrets.
    pub fn check_viewer(&mut self, viewer: Viewer) {
        self.check_view(viewer);
        self.check_new_events(viewer);
    }

    /// The events since the viewer last looked hold none of its secrets. (An event is checked
    /// right after it happened: a seat may later lose sight of a card it once saw, such as one
    /// it passed on.)
    pub fn check_new_events(&mut self, viewer: Viewer) {
        let seat = viewer.seat().map(Seat::index);
        let index = seat.unwrap_or(self.seats);
        let path = format!("/v1/games/{}/events?after={}", self.created.id, self.read[index]);
        let log = self
            .roadie
            .get(&path, seat.map(|s| self.created.tokens[s].as_str()));
        assert_eq!(log.status, 200, "{}", log.body);
        self.assert_no_secret(viewer, &log.body, "the event log");
        self.read[index] = log.json["next_after"].as_u64().expect("next_after");
    }

    /// The viewer's view equals the engine's and holds none of its secrets, nor the seed.
    pub fn check_view(&self, viewer: Viewer) {
        let seat = viewer.seat().map(Seat::index);
        let reply = self.roadie.game(&self.created, seat);
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(
            reply.json["view"],
            json(&self.local.view(viewer)),
            "{viewer:?}'s view differs"
        );
        self.assert_no_secret(viewer, &reply.body, "the view");
        if !self.local.is_over() {
            assert!(
                reply.json.get("seed").is_none(),
                "the seed is shown before the end"
            );
            assert!(!reply.body.contains("\"rng\""), "the view shows the RNG");
        }
    }

    fn assert_no_secret(&self, viewer: Viewer, text: &str, what: &str) {
        if self.local.is_over() {
            return;
        }
        for secret in self.local.secrets(viewer) {
            assert!(
                !text.contains(&format!("\"{secret}\"")),
                "{}: {what} shows {viewer:?} the hidden {secret:?}",
                self.slug
            );
        }
    }

    /// Checks a finished game: outcome, seed revealed and matching its commitment, the whole
    /// log public and equal to the engine's.
    pub fn check_finished(&self) {
        let game = self.roadie.game(&self.created, None);
        assert_eq!(game.json["status"], "finished");
        assert!(
            game.json["outcome"]["winners"].is_array(),
            "no outcome: {}",
            game.body
        );
        assert_eq!(game.json["to_act"], serde_json::json!([]));
        assert_eq!(game.json["seed"], self.seed, "the seed is revealed at the end");
        let salt = game.json["seed_salt"]
            .as_str()
            .expect("the salt is revealed at the end");
        let commitment = hex::encode(Sha256::digest(format!("{salt}:{}", self.seed).as_bytes()));
        assert_eq!(commitment, self.created.seed_commitment);
        assert_eq!(game.json["seed_commitment"], commitment);
        let outcome = serde_json::to_value(self.local.outcome()).expect("outcome");
        assert_eq!(game.json["outcome"], outcome);
        for seat in (0..self.seats).map(Some).chain([None]) {
            let log = self.roadie.events(&self.created, seat);
            let bodies: Vec<Value> = log.iter().map(|e| e["body"].clone()).collect();
            assert_eq!(
                bodies, self.local_events,
                "{seat:?}: the finished log is not the whole log"
            );
            let seqs: Vec<u64> = log.iter().map(|e| e["seq"].as_u64().expect("seq")).collect();
            assert_eq!(seqs, (1..=self.local_events.len() as u64).collect::<Vec<_>>());
        }
    }
}
