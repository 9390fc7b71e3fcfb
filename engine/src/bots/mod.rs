//! Bots that fill a seat.
//!
//! A bot decides from what its seat may know: the seat's view and its legal actions. It never
//! reads the game's hidden state, so a bot seat learns nothing a person in that seat would not.
//! Each game's `greedy` heuristic is a function of `(&view, &[action], rng)` alone, the view
//! read back from the seat's view JSON into the few fields the heuristic needs: nothing else
//! reaches it.

mod rock_the_world;
mod show_business;
mod shrewd_producer;

#[cfg(test)]
mod tests;

use rand::Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games;
use crate::registry::Json;
use crate::{AnyGame, Game, Seat, Viewer};

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal action, each as likely.
    Random,
    /// The game's own heuristic.
    Greedy,
}

impl BotLevel {
    /// Every level.
    pub const ALL: [BotLevel; 2] = [BotLevel::Random, BotLevel::Greedy];

    /// The level as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
        }
    }
}

/// The action a `level` bot in `seat` plays now, as JSON; `None` when the seat has nothing to
/// do. Reads only the seat's view and legal actions.
pub fn choose(game: &AnyGame, seat: Seat, level: BotLevel, rng: &mut impl Rng) -> Option<Json> {
    let legal = game.legal_action_list(seat);
    if legal.is_empty() {
        return None;
    }
    let view = game.view(Viewer::Seat(seat));
    let pick = match level {
        BotLevel::Random => None,
        BotLevel::Greedy => greedy(game.ruleset().slug, &view, &legal, rng),
    };
    let pick = match pick {
        Some(i) if i < legal.len() => i,
        _ => rng.random_range(0..legal.len()),
    };
    legal.into_iter().nth(pick)
}

/// The greedy pick of the ruleset `slug`, as an index into `legal`; `None` when the view or an
/// action does not read as that game's (the caller then picks at random).
fn greedy(slug: &str, view: &Json, legal: &[Json], rng: &mut impl Rng) -> Option<usize> {
    if slug == games::shrewd_producer::ShrewdProducer::SLUG {
        let (view, legal) = typed(view, legal)?;
        shrewd_producer::greedy(&view, &legal, rng)
    } else if slug == games::rock_the_world::RockTheWorld::SLUG {
        let (view, legal) = typed(view, legal)?;
        rock_the_world::greedy(&view, &legal, rng)
    } else if slug == games::show_business::ShowBusiness::SLUG {
        let (view, legal) = typed(view, legal)?;
        show_business::greedy(&view, &legal, rng)
    } else {
        None
    }
}

/// The seat's view and legal actions, read into a heuristic's types.
fn typed<V: DeserializeOwned, A: DeserializeOwned>(view: &Json, legal: &[Json]) -> Option<(V, Vec<A>)> {
    let view = serde_json::from_str(view.get()).ok()?;
    let legal = legal
        .iter()
        .map(|a| serde_json::from_str(a.get()).ok())
        .collect::<Option<Vec<A>>>()?;
    Some((view, legal))
}

/// The index of the best-scoring action, ties broken by `rng`; `None` for an empty list.
fn best_by<A>(legal: &[A], rng: &mut impl Rng, mut score: impl FnMut(&A) -> f64) -> Option<usize> {
    let scores: Vec<f64> = legal.iter().map(&mut score).collect();
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= top).collect();
    if best.is_empty() {
        return None;
    }
    Some(best[rng.random_range(0..best.len())])
}
