//! Playing games to the end: each connection takes the next game, creates it, and plays random
//! legal actions until it is over, checking that every accepted action advances the version by one.
//! The legal actions come from the server ([`Flow::Listed`]) or from a local copy of the rules
//! ([`Flow::Mirrored`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_engine::Seat;
use serde_json::json;
use serde_json::value::RawValue;

use crate::Flow;
use roadie_api::wire::{ActionResult, CreatedGame, GameState, Status};

use crate::client::{CallError, Client, SeatKey, Server};
use crate::mirror;
use crate::report::Stats;
use crate::stream::Watchers;

/// What to play.
pub struct Plan {
    pub ruleset: String,
    pub flow: Flow,
    pub seats: usize,
    /// Seats played by the server's bots: the last ones.
    pub bots: usize,
    pub options: Option<serde_json::Value>,
    pub seed: u64,
    pub games: usize,
    pub max_actions: u64,
    pub deadline: Instant,
    /// Spectator streams opened on each game as it is created.
    pub streams_per_game: usize,
}

/// The plan and the counters every connection shares.
pub struct Shared {
    pub plan: Plan,
    pub next_game: AtomicUsize,
    pub actions: AtomicU64,
    pub finished: AtomicU64,
    pub server: Server,
}

/// One connection: plays games one after another until none is left or the time is up. The
/// games' push streams are opened on `watchers`, which belong to the connection's thread.
pub async fn worker(mut client: Client, shared: Arc<Shared>, watchers: Arc<Watchers>) -> Stats {
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
        match play_one(&mut client, &shared, &watchers, index, &mut stats).await {
            Ok(()) => {
                stats.games_finished += 1;
                shared.finished.fetch_add(1, Ordering::Relaxed);
            }
            Err(why) => stats.fail(format!("game {index}: {why}")),
        }
    }
}

async fn play_one(
    client: &mut Client,
    shared: &Shared,
    watchers: &Watchers,
    index: usize,
    stats: &mut Stats,
) -> Result<(), String> {
    let plan = &shared.plan;
    let seed = plan.seed.wrapping_add(index as u64);
    let seats = if plan.bots == 0 {
        json!(plan.seats)
    } else {
        let remote = plan.seats - plan.bots;
        (0..plan.seats)
            .map(|seat| {
                if seat < remote {
                    json!({ "name": format!("remote {seat}") })
                } else {
                    json!({ "bot": "random" })
                }
            })
            .collect()
    };
    let mut body = json!({ "ruleset": plan.ruleset, "seats": seats, "seed": seed });
    if let Some(options) = &plan.options {
        body["options"] = options.clone();
    }
    let created = client
        .create(stats, &body)
        .await
        .map_err(|e| format!("create: {e}"))?;
    stats.games_created += 1;
    let id = created.id.clone();
    let keys = client.seat_keys(&created, plan.flow == Flow::Mirrored)?;
    if plan.streams_per_game > 0 {
        watchers
            .watch(&shared.server, &id, plan.streams_per_game, plan.deadline)
            .await;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0005_eed0_fc40_1ce5);

    let accepted = match plan.flow {
        Flow::Listed => play_listed(client, shared, &created, &keys, &mut rng, stats).await?,
        Flow::Mirrored => play_mirrored(client, shared, &created, &keys, seed, &mut rng, stats).await?,
        Flow::Tickets | Flow::Spectate => {
            return Err("games are not played to the end in --flow tickets or spectate".into());
        }
    };
    let last = client
        .game(stats, &id)
        .await
        .map_err(|e| format!("{id}: final read: {e}"))?;
    if last.status != Status::Finished || last.outcome.is_none() || !last.to_act.is_empty() {
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

/// Lists the acting seat's actions before each post; returns how many posts were accepted.
async fn play_listed(
    client: &mut Client,
    shared: &Shared,
    created: &CreatedGame,
    keys: &[SeatKey],
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
) -> Result<u64, String> {
    let plan = &shared.plan;
    let id = &created.id;
    let mut game: GameState = client.game(stats, id).await.map_err(|e| format!("{id}: {e}"))?;
    if game.version != created.version {
        return Err(format!(
            "{id}: created at version {} but read back at version {}",
            created.version, game.version
        ));
    }
    let mut accepted: u64 = 0;
    while game.status != Status::Finished {
        let key = next_turn(plan, id, keys, &game.to_act, accepted, rng)?;
        let seat = key.seat;
        let (list, actions) = client
            .actions(stats, key)
            .await
            .map_err(|e| format!("{id}: seat {seat} lists its actions: {e}"))?;
        if list.version != game.version {
            return Err(format!(
                "{id}: actions listed at version {} while the game is at {}",
                list.version, game.version
            ));
        }
        let posted = post_random(client, stats, (id, key), &actions, rng).await?;
        accepted += 1;
        stats.actions += 1;
        shared.actions.fetch_add(1, Ordering::Relaxed);
        let Some(next) = posted.game else {
            return Err(format!("{id}: a post answered without the game"));
        };
        if posted.version != game.version + 1 || next.version != posted.version {
            stats.lost += 1;
            return Err(format!(
                "{id}: an accepted action moved the version from {} to {} (game says {})",
                game.version, posted.version, next.version
            ));
        }
        game = next;
    }
    Ok(accepted)
}

/// Chooses from a local copy of the rules and posts only, asking for the minimal answer; every
/// answer must agree with the copy. Returns how many posts were accepted.
async fn play_mirrored(
    client: &mut Client,
    shared: &Shared,
    created: &CreatedGame,
    keys: &[SeatKey],
    seed: u64,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
) -> Result<u64, String> {
    const HEAD: &[u8] = br#"{"action":"#;
    let plan = &shared.plan;
    let id = &created.id;
    let mut local = mirror::setup(&plan.ruleset, plan.options.as_ref(), plan.seats, seed)
        .map_err(|e| format!("{id}: the local copy cannot set up: {e}"))?;
    let mut version = created.version;
    let mut accepted: u64 = 0;
    let mut to_act = local.to_act();
    let mut body = Vec::with_capacity(256);
    while !local.is_over() {
        let key = next_turn(plan, id, keys, &to_act, accepted, rng)?;
        let seat = key.seat;
        body.clear();
        body.extend_from_slice(HEAD);
        if !local
            .pick(seat, rng, &mut body)
            .map_err(|e| format!("{id}: the local copy's actions: {e}"))?
        {
            return Err(format!("{id}: seat {seat} is to act but has no legal action"));
        }
        body.push(b'}');
        let posted = client
            .post_minimal(stats, key, &body, |m| (m.version, m.status, m.to_act))
            .await;
        let (posted_version, status, posted_to_act) = match posted {
            Ok(posted) => posted,
            Err(CallError::Refused { status, code }) => {
                return Err(format!(
                    "{id}: seat {seat}'s legal action {} was refused: {status} {code}",
                    String::from_utf8_lossy(&body[HEAD.len()..body.len() - 1])
                ));
            }
            Err(e) => return Err(format!("{id}: post: {e}")),
        };
        local
            .apply_picked(seat)
            .map_err(|e| format!("{id}: the local copy refuses its own action: {e}"))?;
        accepted += 1;
        stats.actions += 1;
        shared.actions.fetch_add(1, Ordering::Relaxed);
        if posted_version != version + 1 {
            stats.lost += 1;
            return Err(format!(
                "{id}: an accepted action moved the version from {version} to {posted_version}"
            ));
        }
        version = posted_version;
        to_act = local.to_act();
        let finished = status == Status::Finished;
        if posted_to_act != to_act || finished != local.is_over() {
            return Err(format!(
                "{id}: after version {version} the server says {status:?} with {posted_to_act:?} to act, the local copy {to_act:?}"
            ));
        }
    }
    Ok(accepted)
}

/// Posts one of `actions` (at random) for the seat and answers the whole game; every one of them
/// is legal, so a refusal fails the game.
async fn post_random(
    client: &mut Client,
    stats: &mut Stats,
    (id, key): (&str, &SeatKey),
    actions: &[Box<RawValue>],
    rng: &mut ChaCha8Rng,
) -> Result<ActionResult, String> {
    let seat = key.seat;
    if actions.is_empty() {
        return Err(format!("{id}: seat {seat} is to act but has no legal action"));
    }
    let action = &actions[rng.random_range(0..actions.len())];
    match client.post(stats, key, action).await {
        Ok(posted) => Ok(posted),
        Err(CallError::Refused { status, code }) => Err(format!(
            "{id}: seat {seat}'s legal action {} was refused: {status} {code}",
            action.get()
        )),
        Err(e) => Err(format!("{id}: post: {e}")),
    }
}

/// The seat to play next (at random among `to_act`) with its key, unless the game has run out
/// of time or of actions.
fn next_turn<'k>(
    plan: &Plan,
    id: &str,
    keys: &'k [SeatKey],
    to_act: &[Seat],
    accepted: u64,
    rng: &mut ChaCha8Rng,
) -> Result<&'k SeatKey, String> {
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
    let seat = pick_seat(to_act, rng).ok_or_else(|| format!("{id}: active but nobody is to act"))?;
    keys.iter()
        .find(|k| k.seat == seat)
        .ok_or_else(|| format!("{id}: no token for seat {seat}"))
}

/// A random seat among those to act (several act at once in simultaneous decisions).
fn pick_seat(to_act: &[Seat], rng: &mut ChaCha8Rng) -> Option<Seat> {
    match to_act.len() {
        0 => None,
        n => to_act.get(rng.random_range(0..n)).copied(),
    }
}
