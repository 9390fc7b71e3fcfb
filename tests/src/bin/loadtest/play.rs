//! Playing games to the end: each connection takes the next game, creates it, and plays random
//! legal actions until it is over, checking that every accepted action advances the version by one.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use crate::client::{CallError, Client, Created, GameDoc};
use crate::report::Stats;

/// What to play.
pub struct Plan {
    pub ruleset: String,
    pub seats: usize,
    pub options: Option<serde_json::Value>,
    pub seed: u64,
    pub games: usize,
    pub max_actions: u64,
    pub deadline: Instant,
}

/// The plan and the counters every connection shares.
pub struct Shared {
    pub plan: Plan,
    pub next_game: AtomicUsize,
    pub actions: AtomicU64,
    pub finished: AtomicU64,
}

/// One connection: plays games one after another until none is left or the time is up.
pub async fn worker(client: Client, shared: Arc<Shared>) -> Stats {
    let mut stats = Stats::default();
    loop {
        let index = shared.next_game.fetch_add(1, Ordering::Relaxed);
        if index >= shared.plan.games {
            return stats;
        }
        if Instant::now() >= shared.plan.deadline {
            stats.fail(format!(
                "game {index} was never started: the time limit was reached"
            ));
            continue;
        }
        match play_one(&client, &shared, index, &mut stats).await {
            Ok(()) => {
                stats.games_finished += 1;
                shared.finished.fetch_add(1, Ordering::Relaxed);
            }
            Err(why) => stats.fail(format!("game {index}: {why}")),
        }
    }
}

async fn play_one(client: &Client, shared: &Shared, index: usize, stats: &mut Stats) -> Result<(), String> {
    let plan = &shared.plan;
    let seed = plan.seed.wrapping_add(index as u64);
    let mut body = json!({ "ruleset": plan.ruleset, "seats": plan.seats, "seed": seed });
    if let Some(options) = &plan.options {
        body["options"] = options.clone();
    }
    let created = client
        .create(stats, &body)
        .await
        .map_err(|e| format!("create: {e}"))?;
    stats.games_created += 1;
    let id = created.id.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0005_eed0_fc40_1ce5);

    let mut game: GameDoc = client.game(stats, &id).await.map_err(|e| format!("{id}: {e}"))?;
    if game.version != created.version {
        return Err(format!(
            "{id}: created at version {} but read back at version {}",
            created.version, game.version
        ));
    }
    let mut accepted: u64 = 0;
    while game.status != "finished" {
        if Instant::now() >= plan.deadline {
            return Err(format!(
                "{id}: unfinished at the time limit after {accepted} actions"
            ));
        }
        if accepted >= plan.max_actions {
            return Err(format!(
                "{id}: still running after {accepted} actions (--max-actions)"
            ));
        }
        let seat = pick_seat(&game, &mut rng).ok_or_else(|| format!("{id}: active but nobody is to act"))?;
        let token = token_of(&created, seat).ok_or_else(|| format!("{id}: no token for seat {seat}"))?;
        let list = client
            .actions(stats, &id, token)
            .await
            .map_err(|e| format!("{id}: seat {seat} lists its actions: {e}"))?;
        if list.version != game.version {
            return Err(format!(
                "{id}: actions listed at version {} while the game is at {}",
                list.version, game.version
            ));
        }
        if list.actions.is_empty() {
            return Err(format!("{id}: seat {seat} is to act but has no legal action"));
        }
        let action = &list.actions[rng.random_range(0..list.actions.len())];
        let posted = match client.post(stats, &id, token, action).await {
            Ok(posted) => posted,
            Err(CallError::Refused { status, code }) => {
                return Err(format!(
                    "{id}: seat {seat}'s listed action {} was refused: {status} {code}",
                    action.get()
                ));
            }
            Err(e) => return Err(format!("{id}: post: {e}")),
        };
        accepted += 1;
        stats.actions += 1;
        shared.actions.fetch_add(1, Ordering::Relaxed);
        if posted.version != game.version + 1 || posted.game.version != posted.version {
            stats.lost += 1;
            return Err(format!(
                "{id}: an accepted action moved the version from {} to {} (game says {})",
                game.version, posted.version, posted.game.version
            ));
        }
        game = posted.game;
    }

    let last = client
        .game(stats, &id)
        .await
        .map_err(|e| format!("{id}: final read: {e}"))?;
    if last.status != "finished" || last.outcome.is_none() || !last.to_act.is_empty() {
        return Err(format!(
            "{id}: reported finished by the last post, but reads back as {:?} (to_act {:?}, outcome {})",
            last.status,
            last.to_act,
            if last.outcome.is_some() {
                "present"
            } else {
                "missing"
            }
        ));
    }
    if last.version != created.version + accepted {
        stats.lost += 1;
        return Err(format!(
            "{id}: {accepted} actions accepted from version {}, but the game is at version {}",
            created.version, last.version
        ));
    }
    Ok(())
}

/// A random seat among those to act (several act at once in simultaneous decisions).
fn pick_seat(game: &GameDoc, rng: &mut ChaCha8Rng) -> Option<usize> {
    match game.to_act.len() {
        0 => None,
        n => game.to_act.get(rng.random_range(0..n)).copied(),
    }
}

fn token_of(created: &Created, seat: usize) -> Option<&str> {
    created
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.token.as_str())
}
