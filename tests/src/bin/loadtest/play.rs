//! Playing games to the end: each connection takes the next game, creates it, and plays random
//! legal actions until it is over, checking that every accepted action advances the version by one.
//! The legal actions come from the server ([`Flow::Listed`]) or from a local copy of the rules
//! ([`Flow::Mirrored`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roadie_engine::{AnyGame, Seat};
use serde_json::json;
use serde_json::value::RawValue;

use crate::Flow;
use roadie_api::wire::{ActionResult, CreatedGame, GameState, Status};

use crate::client::{CallError, Client, Server};
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
    pub watchers: Arc<Watchers>,
}

/// One connection: plays games one after another until none is left or the time is up.
pub async fn worker(mut client: Client, shared: Arc<Shared>) -> Stats {
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
        match play_one(&mut client, &shared, index, &mut stats).await {
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
    if plan.streams_per_game > 0 {
        shared
            .watchers
            .watch(&shared.server, &id, plan.streams_per_game, plan.deadline)
            .await;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0005_eed0_fc40_1ce5);

    let accepted = match plan.flow {
        Flow::Listed => play_listed(client, shared, &created, &mut rng, stats).await?,
        Flow::Mirrored => play_mirrored(client, shared, &created, seed, &mut rng, stats).await?,
        Flow::Tickets => return Err("games are not played in --flow tickets".into()),
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
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
) -> Result<u64, String> {
    let plan = &shared.plan;
    let id = &created.id;
    let url = Client::actions_path(id);
    let mut game: GameState = client.game(stats, id).await.map_err(|e| format!("{id}: {e}"))?;
    if game.version != created.version {
        return Err(format!(
            "{id}: created at version {} but read back at version {}",
            created.version, game.version
        ));
    }
    let mut accepted: u64 = 0;
    while game.status != Status::Finished {
        let (seat, token) = next_turn(plan, created, &game.to_act, accepted, rng)?;
        let (list, actions) = client
            .actions(stats, &url, token)
            .await
            .map_err(|e| format!("{id}: seat {seat} lists its actions: {e}"))?;
        if list.version != game.version {
            return Err(format!(
                "{id}: actions listed at version {} while the game is at {}",
                list.version, game.version
            ));
        }
        let (_, posted) = post_random(client, stats, &url, (id, seat, token), &actions, rng, false).await?;
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
    seed: u64,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
) -> Result<u64, String> {
    let plan = &shared.plan;
    let id = &created.id;
    let url = Client::actions_path(id);
    let (mut local, _) = AnyGame::setup(&plan.ruleset, plan.options.as_ref(), plan.seats, seed)
        .map_err(|e| format!("{id}: the local copy cannot set up: {e}"))?;
    let mut version = created.version;
    let mut accepted: u64 = 0;
    while !local.is_over() {
        let (seat, token) = next_turn(plan, created, &local.to_act(), accepted, rng)?;
        let actions: Vec<Box<RawValue>> = serde_json::from_str(local.legal_actions(seat).get())
            .map_err(|e| format!("{id}: the local copy's actions: {e}"))?;
        let (action, posted) =
            post_random(client, stats, &url, (id, seat, token), &actions, rng, true).await?;
        local
            .apply(seat, action.get())
            .map_err(|e| format!("{id}: the local copy refuses its own action: {e:?}"))?;
        accepted += 1;
        stats.actions += 1;
        shared.actions.fetch_add(1, Ordering::Relaxed);
        if posted.version != version + 1 {
            stats.lost += 1;
            return Err(format!(
                "{id}: an accepted action moved the version from {version} to {}",
                posted.version
            ));
        }
        version = posted.version;
        let finished = posted.status == Status::Finished;
        if posted.to_act != local.to_act() || finished != local.is_over() {
            return Err(format!(
                "{id}: after version {version} the server says {:?} with {:?} to act, the local copy {:?}",
                posted.status,
                posted.to_act,
                local.to_act()
            ));
        }
    }
    Ok(accepted)
}

/// Posts one of `actions` (at random) for the seat; every one of them is legal, so a refusal
/// fails the game.
async fn post_random<'a>(
    client: &mut Client,
    stats: &mut Stats,
    url: &str,
    (id, seat, token): (&str, Seat, &str),
    actions: &'a [Box<RawValue>],
    rng: &mut ChaCha8Rng,
    minimal: bool,
) -> Result<(&'a RawValue, ActionResult), String> {
    if actions.is_empty() {
        return Err(format!("{id}: seat {seat} is to act but has no legal action"));
    }
    let action = &actions[rng.random_range(0..actions.len())];
    match client.post(stats, url, token, action, minimal).await {
        Ok(posted) => Ok((action, posted)),
        Err(CallError::Refused { status, code }) => Err(format!(
            "{id}: seat {seat}'s legal action {} was refused: {status} {code}",
            action.get()
        )),
        Err(e) => Err(format!("{id}: post: {e}")),
    }
}

/// The seat to play next (at random among `to_act`) and its token, unless the game has run out
/// of time or of actions.
fn next_turn<'c>(
    plan: &Plan,
    created: &'c CreatedGame,
    to_act: &[Seat],
    accepted: u64,
    rng: &mut ChaCha8Rng,
) -> Result<(Seat, &'c str), String> {
    let id = &created.id;
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
    let token = token_of(created, seat).ok_or_else(|| format!("{id}: no token for seat {seat}"))?;
    Ok((seat, token))
}

/// A random seat among those to act (several act at once in simultaneous decisions).
fn pick_seat(to_act: &[Seat], rng: &mut ChaCha8Rng) -> Option<Seat> {
    match to_act.len() {
        0 => None,
        n => to_act.get(rng.random_range(0..n)).copied(),
    }
}

fn token_of(created: &CreatedGame, seat: Seat) -> Option<&str> {
    created
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.token.as_str())
}
