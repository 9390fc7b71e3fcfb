//! The expert bot: determinized Monte Carlo search over the game's own rules, shared by every
//! game.
//!
//! The search weighs the seat's legal actions against each other (flat Monte Carlo at the
//! root, the actions raced by sequential halving). Each sample is a position the seat cannot
//! tell apart from the real one ([`Game::determinize`]); on it, every action still in the race
//! is played and the game played out, each seat on the game's greedy heuristic
//! ([`Game::greedy_pick_in`], the same pick [`Game::greedy_pick`] makes from the seat's view),
//! and every action's playout uses the same dice (common random numbers), so that the actions
//! are compared on the same deals and rolls. After each round the worse half of the actions
//! leaves the race; the budget is spread evenly over the rounds. The choice is the action that
//! stayed longest, then the best mean result; the heuristic's own pick gets a small edge in
//! that comparison, so the search departs from it only where playouts show it wrong. Against
//! greedy seats this is one step of policy improvement: the action whose continuation under
//! the heuristic fares best.
//!
//! The search reads nothing of the real game but the seat's legal actions and the samples, so it
//! knows only what the seat knows. With an iteration budget alone the choice is a function of
//! those and the rng: the same rng gives the same choice.

use std::time::{Duration, Instant};

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Game, Seat};

/// How much the expert may think about one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search iterations: each one plays one action out from one sample. At least one runs.
    pub iterations: u32,
    /// A wall-clock bound besides, checked between iterations; `None` keeps the choice a function
    /// of the rng alone.
    pub time: Option<Duration>,
}

impl Budget {
    /// The default: [`DEFAULT_ITERATIONS`] playouts, bounded by [`DEFAULT_TIME`]. Measured in a
    /// release build on one core, a decision takes 20 to 50 ms on average and about 0.1 s at the
    /// longest, so the bound binds only on a loaded machine (docs/playing.md, "Bots and their levels").
    pub const DEFAULT: Budget = Budget {
        iterations: DEFAULT_ITERATIONS,
        time: Some(DEFAULT_TIME),
    };

    /// A budget of `iterations` and no time bound.
    pub const fn iterations(iterations: u32) -> Self {
        Self {
            iterations,
            time: None,
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// [`Budget::DEFAULT`]'s iterations.
pub const DEFAULT_ITERATIONS: u32 = 200;
/// [`Budget::DEFAULT`]'s time bound: a decision never takes much longer, whatever the machine.
pub const DEFAULT_TIME: Duration = Duration::from_millis(500);

/// The edge the heuristic's own pick gets when the actions' mean results are compared, unless
/// the game sets another ([`Game::SEARCH_GREEDY_EDGE`]).
pub(crate) const GREEDY_EDGE: f64 = 0.02;
/// Actions after which a playout stops and counts as even for every seat.
const PLAYOUT_CAP: usize = 20_000;
/// How much of a playout's result is the win (a shared first place counts 1/k); the rest is the
/// seat's score against the best other score, so that playouts tell a close game from a rout.
const WIN_WEIGHT: f64 = 0.5;

/// One action of the seat, with its statistics.
#[derive(Clone, Copy, Default)]
struct Arm {
    /// Playouts after it.
    visits: u32,
    /// Sum of their results, for the searching seat.
    reward: f64,
    /// The rounds of the race it stayed in.
    rounds: u32,
}

impl Arm {
    fn mean(&self) -> f64 {
        self.reward / f64::from(self.visits.max(1))
    }
}

/// One of the actions the expert weighed, with the share of the search's visits it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Considered<A> {
    /// The action.
    pub action: A,
    /// Its share of the playouts, from 0 to 1: the race gives more to the actions that stay in
    /// it, so this is how much the search came to trust it.
    pub share: f64,
}

/// The expert's pick among `legal`, the legal actions of `seat` in `game`, as an index into
/// `legal`; `None` leaves the pick to chance (the search found nothing to prefer).
pub(crate) fn expert<G: Game>(
    game: &G,
    seat: Seat,
    legal: &[G::Action],
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Option<usize> {
    let ranked = deliberate(game, seat, legal, budget, rng);
    let best = ranked.first()?;
    legal.iter().position(|a| *a == best.action)
}

/// The actions the search weighed for `seat` from `game`, among `legal`, best first (longest in
/// the race, then the best mean result), each with its share of the playouts. A forced action
/// is the one entry, with the whole share; no legal action, none.
pub(crate) fn deliberate<G: Game>(
    game: &G,
    seat: Seat,
    legal: &[G::Action],
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Vec<Considered<G::Action>> {
    if legal.len() <= 1 {
        return legal
            .iter()
            .map(|action| Considered {
                action: action.clone(),
                share: 1.0,
            })
            .collect();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
    let edge = G::SEARCH_GREEDY_EDGE;
    let started = Instant::now();
    let n = legal.len();
    let mut arms = vec![Arm::default(); n];
    let mut alive: Vec<usize> = (0..n).collect();
    let mut greedy_arm: Option<usize> = None;
    let mut planned = u64::from(budget.iterations.max(1));
    let mut spent: u64 = 0;
    // Sequential halving: ceil(log2 n) rounds, each halving the actions in the race.
    let rounds = u64::from(usize::BITS - (n - 1).leading_zeros()).max(1);
    let mut round: u64 = 0;
    'race: loop {
        let mut played_round: u64 = 0;
        let before = spent;
        loop {
            let share = planned.saturating_sub(before) / (rounds - round).max(1);
            let per_arm = (share / alive.len() as u64).max(1);
            if played_round >= per_arm {
                break;
            }
            if spent > 0 && spent >= planned {
                break 'race;
            }
            if let Some(limit) = budget.time {
                let elapsed = started.elapsed();
                if spent > 0 && elapsed >= limit {
                    break 'race;
                }
                // How many playouts the time allows, at the pace so far.
                if spent > 0 {
                    let pace = elapsed.as_secs_f64() / spent as f64;
                    let fits = (limit.as_secs_f64() / pace.max(1e-9)) as u64;
                    planned = u64::from(budget.iterations.max(1)).min(fits.max(spent + 1));
                }
            }
            played_round += 1;
            let sample = game.determinize(seat, &mut rng);
            let dice = rng.next_u64();
            let listed = if sample.may_act(seat) {
                sample.actions_for(seat)
            } else {
                Vec::new()
            };
            if greedy_arm.is_none() && !listed.is_empty() {
                greedy_arm = sample
                    .greedy_pick_in(seat, &listed, &mut rng)
                    .and_then(|i| listed.get(i))
                    .and_then(|a| legal.iter().position(|l| l == a));
            }
            spent += 1;
            for &arm in &alive {
                let action = &legal[arm];
                if !listed.contains(action) {
                    continue;
                }
                let mut state = sample.clone();
                state.apply_legal(seat, action);
                let result = play_out(state, seat, &mut ChaCha8Rng::seed_from_u64(dice));
                arms[arm].visits += 1;
                arms[arm].reward += result;
                spent += 1;
            }
            spent -= 1;
        }
        round += 1;
        if round >= rounds || alive.len() <= 1 {
            break;
        }
        let keep = alive.len().div_ceil(2);
        alive.sort_by(|&a, &b| {
            score(&arms, greedy_arm, edge, b).total_cmp(&score(&arms, greedy_arm, edge, a))
        });
        alive.truncate(keep);
        for &arm in &alive {
            arms[arm].rounds += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        arms[b]
            .rounds
            .cmp(&arms[a].rounds)
            .then(score(&arms, greedy_arm, edge, b).total_cmp(&score(&arms, greedy_arm, edge, a)))
            .then((Some(b) == greedy_arm).cmp(&(Some(a) == greedy_arm)))
    });
    let visits = f64::from(arms.iter().map(|a| a.visits).sum::<u32>().max(1));
    order
        .into_iter()
        .map(|i| Considered {
            action: legal[i].clone(),
            share: f64::from(arms[i].visits) / visits,
        })
        .collect()
}

/// An arm's mean result, with the heuristic's edge; an arm never played ranks last.
fn score(arms: &[Arm], greedy_arm: Option<usize>, edge: f64, arm: usize) -> f64 {
    let a = &arms[arm];
    if a.visits == 0 {
        return f64::NEG_INFINITY;
    }
    a.mean() + if Some(arm) == greedy_arm { edge } else { 0.0 }
}

/// The heuristic's pick for `actor` in `state` among `legal`; a forced action without asking.
fn greedy<G: Game>(state: &G, actor: Seat, legal: &[G::Action], rng: &mut ChaCha8Rng) -> usize {
    if legal.len() <= 1 {
        return 0;
    }
    state
        .greedy_pick_in(actor, legal, rng)
        .filter(|&i| i < legal.len())
        .unwrap_or_else(|| rng.random_range(0..legal.len()))
}

/// Plays `state` to its end, every seat on the heuristic from its own view; the result for
/// `seat`, between 0 and 1.
fn play_out<G: Game>(mut state: G, seat: Seat, rng: &mut ChaCha8Rng) -> f64 {
    let seats = state.seat_count();
    for _ in 0..PLAYOUT_CAP {
        if let Some(outcome) = state.outcome() {
            let k = outcome.winners.len().max(1) as f64;
            let win = if outcome.winners.contains(&seat) {
                1.0 / k
            } else {
                0.0
            };
            let total = |s: Seat| outcome.scores.iter().find(|x| x.seat == s).map_or(0, |x| x.total) as f64;
            let own = total(seat);
            let best = Seat::all(seats)
                .filter(|&s| s != seat)
                .map(total)
                .fold(f64::NEG_INFINITY, f64::max);
            let margin = if best.is_finite() {
                (own - best) / (own.abs() + best.abs()).max(1.0)
            } else {
                0.0
            };
            return WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * (1.0 + margin.clamp(-1.0, 1.0)) / 2.0;
        }
        let Some(&actor) = state.to_act().first() else {
            break;
        };
        let legal = state.actions_for(actor);
        if legal.is_empty() {
            break;
        }
        let pick = greedy(&state, actor, &legal, rng);
        state.apply_legal(actor, &legal[pick]);
    }
    1.0 / seats.max(1) as f64
}
