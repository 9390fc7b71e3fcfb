//! The expert bot: information-set Monte Carlo tree search over the game's own rules, shared by
//! every game.
//!
//! Each iteration draws a position the seat cannot tell apart from the real one
//! ([`Game::determinize`]) and walks one tree down it. The tree holds the searching seat's own
//! decisions, keyed by the actions it took (single-observer ISMCTS): at each, PUCT chooses among
//! the actions legal in that sample, each weighed by how often it was available, with the game's
//! greedy heuristic ([`Game::greedy_pick`], from the seat's own view of the sample) as the prior.
//! The other seats are modelled as playing that heuristic, from their own views of the sample.
//! The walk adds one decision to the tree, plays the game out with every seat on the heuristic,
//! and credits each decision on the way with the result. The choice is the most visited action
//! at the root: with a small budget the heuristic's, which the search overrides where playouts
//! show it wrong.
//!
//! The search reads nothing of the real game but the seat's legal actions and the samples, so it
//! knows only what the seat knows. With an iteration budget alone the choice is a function of
//! those and the rng: the same rng gives the same choice.

use std::time::{Duration, Instant};

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{Game, Seat, Viewer};

/// How much the expert may think about one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search iterations: each one samples a position and plays it out once. At least one runs.
    pub iterations: u32,
    /// A wall-clock bound besides, checked between iterations; `None` keeps the choice a function
    /// of the rng alone.
    pub time: Option<Duration>,
}

impl Budget {
    /// The default: 16 iterations, a decision in a tenth to a quarter of a second on average
    /// (README, "Bots").
    pub const DEFAULT: Budget = Budget::iterations(16);

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

/// PUCT's exploration constant, for results between 0 and 1.
const EXPLORATION: f64 = 1.0;
/// The prior of the heuristic's own pick; the other actions share the rest.
const GREEDY_PRIOR: f64 = 0.5;
/// Actions after which a playout stops and counts as even for every seat.
const PLAYOUT_CAP: usize = 20_000;
/// How much of a playout's result is the win (a shared first place counts 1/k); the rest is the
/// seat's score against the best other score, so that playouts tell a close game from a rout.
const WIN_WEIGHT: f64 = 0.5;

/// One decision of the searching seat: the actions tried from it.
struct Node<A> {
    children: Vec<Child<A>>,
}

/// An action of the searching seat, with its statistics.
struct Child<A> {
    action: A,
    /// The heuristic's prior for it.
    prior: f64,
    /// The seat's next decision, once a walk went past this one.
    node: Option<usize>,
    visits: u32,
    /// How many walks found it legal.
    available: u32,
    /// Sum of the results, for the searching seat.
    reward: f64,
}

/// One of the actions the expert weighed, with the share of the search's visits it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Considered<A> {
    /// The action.
    pub action: A,
    /// Its share of the visits at the root, from 0 to 1: how much the search came to trust it.
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

/// The actions the search tried for `seat` from `game`, among `legal`, best first (most visited,
/// then the heuristic's prior, then the mean result), each with its share of the root's visits.
/// A forced action is the one entry, with the whole share; no legal action, none.
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
    let started = budget.time.map(|limit| (Instant::now(), limit));
    let mut tree: Vec<Node<G::Action>> = vec![Node { children: Vec::new() }];
    for done in 0..budget.iterations.max(1) {
        if done > 0
            && let Some((at, limit)) = started
            && at.elapsed() >= limit
        {
            break;
        }
        iterate(game, seat, &mut tree, &mut rng);
    }
    let mut root = std::mem::take(&mut tree[0].children);
    root.retain(|c| legal.contains(&c.action));
    root.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.prior.total_cmp(&a.prior))
            .then(mean(b).total_cmp(&mean(a)))
    });
    let visits = f64::from(root.iter().map(|c| c.visits).sum::<u32>().max(1));
    root.into_iter()
        .map(|c| Considered {
            share: f64::from(c.visits) / visits,
            action: c.action,
        })
        .collect()
}

fn mean<A>(c: &Child<A>) -> f64 {
    c.reward / f64::from(c.visits.max(1))
}

/// The heuristic's pick for `actor` in `state` among `legal`, from `actor`'s view; a forced
/// action without building the view.
fn greedy<G: Game>(state: &G, actor: Seat, legal: &[G::Action], rng: &mut ChaCha8Rng) -> usize {
    if legal.len() <= 1 {
        return 0;
    }
    G::greedy_pick(&state.view(Viewer::Seat(actor)), legal, rng)
        .filter(|&i| i < legal.len())
        .unwrap_or_else(|| rng.random_range(0..legal.len()))
}

/// One iteration: sample, walk down the seat's decisions, add one, play out, credit the walk.
fn iterate<G: Game>(game: &G, seat: Seat, tree: &mut Vec<Node<G::Action>>, rng: &mut ChaCha8Rng) {
    let mut state = game.determinize(seat, rng);
    if !state.may_act(seat) {
        return;
    }
    let mut path: Vec<(usize, usize)> = Vec::new();
    let mut node = 0;
    let mut first = true;
    while !state.is_over() {
        let actor = if first {
            seat
        } else {
            match state.to_act().first() {
                Some(&s) => s,
                None => break,
            }
        };
        first = false;
        let legal = state.actions_for(actor);
        if legal.is_empty() {
            break;
        }
        if actor != seat {
            let pick = greedy(&state, actor, &legal, rng);
            state.apply_legal(actor, &legal[pick]);
            continue;
        }
        let choice = greedy(&state, actor, &legal, rng);
        let others = (1.0 - GREEDY_PRIOR) / (legal.len() - 1).max(1) as f64;
        let mut available = Vec::with_capacity(legal.len());
        for (i, action) in legal.into_iter().enumerate() {
            let children = &mut tree[node].children;
            let at = match children.iter().position(|c| c.action == action) {
                Some(at) => at,
                None => {
                    children.push(Child {
                        action,
                        prior: if i == choice { GREEDY_PRIOR } else { others },
                        node: None,
                        visits: 0,
                        available: 0,
                        reward: 0.0,
                    });
                    children.len() - 1
                }
            };
            children[at].available += 1;
            available.push(at);
        }
        let children = &tree[node].children;
        let visits: u32 = available.iter().map(|&i| children[i].visits).sum();
        let tried: Vec<&Child<G::Action>> = available
            .iter()
            .map(|&i| &children[i])
            .filter(|c| c.visits > 0)
            .collect();
        let unvisited = if tried.is_empty() {
            0.5
        } else {
            tried.iter().map(|c| mean(c)).sum::<f64>() / tried.len() as f64
        };
        let root = f64::from(visits.max(1)).sqrt();
        let score = |c: &Child<G::Action>| {
            let q = if c.visits == 0 { unvisited } else { mean(c) };
            q + EXPLORATION * c.prior * root / (1.0 + f64::from(c.visits))
        };
        let mut best = available[0];
        for &i in &available[1..] {
            if score(&children[i]) > score(&children[best]) {
                best = i;
            }
        }
        let fresh = children[best].visits == 0;
        let action = children[best].action.clone();
        state.apply_legal(actor, &action);
        path.push((node, best));
        if fresh {
            break;
        }
        node = match tree[node].children[best].node {
            Some(next) => next,
            None => {
                tree.push(Node { children: Vec::new() });
                let next = tree.len() - 1;
                tree[node].children[best].node = Some(next);
                next
            }
        };
    }
    let result = play_out(state, seat, rng);
    for (node, child) in path {
        let c = &mut tree[node].children[child];
        c.visits += 1;
        c.reward += result;
    }
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
