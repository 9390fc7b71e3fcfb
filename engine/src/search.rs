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
//! leaves the race; the budget is spread evenly over the rounds. Within a round an action also
//! leaves as soon as the leader beats it on the same samples beyond doubt (a paired test, see
//! [`Budget::stop_early`]), its playouts unspent, and the search ends when one action is left.
//! The choice is the action that stayed longest, then the best mean result; the heuristic's own
//! pick gets a small edge in that comparison, so the search departs from it only where
//! playouts show it wrong. Against greedy seats this is one step of policy improvement: the
//! action whose continuation under the heuristic fares best.
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
    /// Whether an action leaves the race as soon as the leader's results on the same samples beat
    /// its results beyond doubt: the mean paired difference more than [`SETTLED_Z`] standard
    /// errors above zero over at least [`SETTLED_AFTER`] samples. Its unplayed playouts are not
    /// spent, and the search ends when one action is left. Without it every playout of the budget
    /// is played.
    pub stop_early: bool,
}

impl Budget {
    /// The default: [`DEFAULT_ITERATIONS`] playouts, bounded by [`DEFAULT_TIME`]. Measured in a
    /// release build on one core, a decision takes 20 to 50 ms on average and about 0.1 s at the
    /// longest, so the bound binds only on a loaded machine (docs/playing.md, "Bots and their levels").
    pub const DEFAULT: Budget = Budget {
        iterations: DEFAULT_ITERATIONS,
        time: Some(DEFAULT_TIME),
        stop_early: true,
    };

    /// A budget of `iterations`, stopping early, and no time bound.
    pub const fn iterations(iterations: u32) -> Self {
        Self {
            iterations,
            time: None,
            stop_early: true,
        }
    }

    /// This budget with every playout played: the search before it stopped early.
    pub const fn every_playout(self) -> Self {
        Self {
            stop_early: false,
            ..self
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
/// How many standard errors of the paired difference the leader must be ahead by for an action
/// to leave the race early ([`Budget::stop_early`]). Looks are taken after every sample, so this
/// is wider than a single test's 1.96.
pub(crate) const SETTLED_Z: f64 = 2.5;
/// The fewest samples two actions must share before one leaves the race early.
pub(crate) const SETTLED_AFTER: usize = 6;
/// Actions after which a playout stops and counts as even for every seat.
const PLAYOUT_CAP: usize = 20_000;
/// How much of a playout's result is the win (a shared first place counts 1/k); the rest is the
/// seat's score against the best other score, so that playouts tell a close game from a rout.
const WIN_WEIGHT: f64 = 0.5;

/// One action of the seat, with its statistics.
#[derive(Clone, Default)]
struct Arm {
    /// Playouts after it.
    visits: u32,
    /// Sum of their results, for the searching seat.
    reward: f64,
    /// The rounds of the race it stayed in.
    rounds: u32,
    /// Its result on each sample it was played on, by the sample's number, when the search may
    /// stop early.
    results: Vec<(u32, f64)>,
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
    let ranked = race(game, seat, legal, budget, rng);
    let visits = f64::from(ranked.iter().map(|&(_, v)| v).sum::<u32>().max(1));
    ranked
        .into_iter()
        .map(|(i, v)| Considered {
            action: legal[i].clone(),
            share: f64::from(v) / visits,
        })
        .collect()
}

/// The race among `legal` (at least two actions): each action's index in `legal` and the
/// playouts it had, best first.
fn race<G: Game>(
    game: &G,
    seat: Seat,
    legal: &[G::Action],
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Vec<(usize, u32)> {
    let mut rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
    let edge = G::SEARCH_GREEDY_EDGE;
    let started = Instant::now();
    let n = legal.len();
    let mut arms = vec![Arm::default(); n];
    let mut alive: Vec<usize> = (0..n).collect();
    let mut greedy_arm: Option<usize> = None;
    let mut planned = u64::from(budget.iterations.max(1));
    let mut spent: u64 = 0;
    // Playouts the early stops left unplayed: no later round gets them.
    let mut unspent: u64 = 0;
    let mut sample_number: u32 = 0;
    // Sequential halving: ceil(log2 n) rounds, each halving the actions in the race.
    let rounds = u64::from(usize::BITS - (n - 1).leading_zeros()).max(1);
    let mut round: u64 = 0;
    'race: loop {
        let mut played_round: u64 = 0;
        let before = spent + unspent;
        let entrants = alive.len() as u64;
        loop {
            let share = planned.saturating_sub(before) / (rounds - round).max(1);
            let per_arm = (share / entrants).max(1);
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
                if budget.stop_early {
                    arms[arm].results.push((sample_number, result));
                }
                spent += 1;
            }
            spent -= 1;
            sample_number += 1;
            if budget.stop_early && alive.len() > 1 {
                let before_drop = alive.len() as u64;
                drop_beaten(&arms, &mut alive, greedy_arm, edge);
                unspent += (before_drop - alive.len() as u64) * per_arm.saturating_sub(played_round);
                if alive.len() == 1 {
                    // The one action left stayed longest of all.
                    arms[alive[0]].rounds = u32::try_from(rounds).unwrap_or(u32::MAX);
                    break 'race;
                }
            }
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
    order.into_iter().map(|i| (i, arms[i].visits)).collect()
}

/// Takes out of `alive` every action that the leader (the best [`score`]) beats beyond doubt on
/// the samples both were played on: their paired difference, the leader's edge included, is more
/// than [`SETTLED_Z`] standard errors above zero over at least [`SETTLED_AFTER`] samples. Common
/// random numbers make the paired difference far less noisy than either result.
fn drop_beaten(arms: &[Arm], alive: &mut Vec<usize>, greedy_arm: Option<usize>, edge: f64) {
    let Some(&leader) = alive
        .iter()
        .max_by(|&&a, &&b| score(arms, greedy_arm, edge, a).total_cmp(&score(arms, greedy_arm, edge, b)))
    else {
        return;
    };
    let bonus = |arm: usize| if Some(arm) == greedy_arm { edge } else { 0.0 };
    alive.retain(|&arm| {
        if arm == leader {
            return true;
        }
        let offset = bonus(leader) - bonus(arm);
        let (mut n, mut sum, mut squares) = (0usize, 0.0f64, 0.0f64);
        let theirs = &arms[arm].results;
        let mut j = 0;
        for &(t, ours) in &arms[leader].results {
            while j < theirs.len() && theirs[j].0 < t {
                j += 1;
            }
            if let Some(&(u, r)) = theirs.get(j)
                && u == t
            {
                let d = ours - r + offset;
                n += 1;
                sum += d;
                squares += d * d;
            }
        }
        if n < SETTLED_AFTER {
            return true;
        }
        let mean = sum / n as f64;
        let variance = ((squares - sum * mean) / (n - 1) as f64).max(0.0);
        let error = (variance / n as f64).sqrt();
        // A difference with no spread at all is as settled as it gets.
        mean <= SETTLED_Z * error || mean <= 0.0
    });
}

/// An arm's mean result, with the heuristic's edge; an arm never played ranks last.
fn score(arms: &[Arm], greedy_arm: Option<usize>, edge: f64, arm: usize) -> f64 {
    let a = &arms[arm];
    if a.visits == 0 {
        return f64::NEG_INFINITY;
    }
    a.mean() + if Some(arm) == greedy_arm { edge } else { 0.0 }
}

/// The heuristic's pick for `actor` in `state` among `legal`, as [`Game::greedy_action`] plays
/// it by default: a forced action without asking, chance where the heuristic has no pick.
pub(crate) fn greedy_among<G: Game>(
    state: &G,
    actor: Seat,
    mut legal: Vec<G::Action>,
    rng: &mut dyn RngCore,
) -> Option<G::Action> {
    let pick = match legal.len() {
        0 => return None,
        1 => 0,
        n => state
            .greedy_pick_in(actor, &legal, rng)
            .filter(|&i| i < n)
            .unwrap_or_else(|| rng.random_range(0..n)),
    };
    Some(legal.swap_remove(pick))
}

/// Plays `state` to its end, every seat on the heuristic from its own view
/// ([`Game::greedy_action`]); the result for
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
        let Some(action) = state.greedy_action(actor, rng) else {
            break;
        };
        state.apply_legal(actor, &action);
    }
    1.0 / seats.max(1) as f64
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::games::shrewd_producer::ShrewdProducer;

    /// An arm with `results` on samples 0, 1, 2, ...
    fn arm(results: &[f64]) -> Arm {
        Arm {
            visits: results.len() as u32,
            reward: results.iter().sum(),
            rounds: 0,
            results: results.iter().enumerate().map(|(t, &r)| (t as u32, r)).collect(),
        }
    }

    #[test]
    fn an_action_the_leader_beats_on_every_shared_sample_leaves_the_race() {
        let leader = arm(&[0.9, 0.4, 0.8, 0.7, 0.9, 0.6, 0.8, 0.5]);
        let beaten = arm(&[0.5, 0.1, 0.4, 0.2, 0.6, 0.2, 0.5, 0.1]);
        let arms = vec![leader, beaten];
        let mut alive = vec![0, 1];
        drop_beaten(&arms, &mut alive, None, 0.0);
        assert_eq!(alive, vec![0]);
    }

    #[test]
    fn an_action_stays_while_the_samples_are_too_few_or_the_difference_in_doubt() {
        let few = vec![arm(&[0.9; 5]), arm(&[0.1; 5])];
        let mut alive = vec![0, 1];
        drop_beaten(&few, &mut alive, None, 0.0);
        assert_eq!(alive, vec![0, 1], "fewer than SETTLED_AFTER shared samples");
        let noisy = vec![
            arm(&[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0]),
            arm(&[0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0]),
        ];
        let mut alive = vec![0, 1];
        drop_beaten(&noisy, &mut alive, None, 0.0);
        assert_eq!(alive, vec![0, 1], "a lead within the noise");
    }

    #[test]
    fn the_heuristics_edge_counts_in_the_paired_difference() {
        // Equal results on every sample: only the edge tells them apart.
        let arms = vec![arm(&[0.5; 8]), arm(&[0.5; 8])];
        let mut alive = vec![0, 1];
        drop_beaten(&arms, &mut alive, None, 0.1);
        assert_eq!(alive, vec![0, 1], "no edge, no difference");
        drop_beaten(&arms, &mut alive, Some(1), 0.1);
        assert_eq!(alive, vec![1], "the heuristic's pick keeps its edge");
    }

    #[test]
    fn stopping_early_never_plays_more_than_the_budget_and_every_playout_plays_it_all() {
        let mut saved = 0;
        for seed in 0..6u64 {
            let (game, _) = ShrewdProducer::new_game(Default::default(), 3, seed).expect("three seats");
            let seat = game.to_act()[0];
            let legal = game.actions_for(seat);
            if legal.len() < 2 {
                continue;
            }
            let played = |budget: Budget| -> u32 {
                race(&game, seat, &legal, budget, &mut ChaCha8Rng::seed_from_u64(seed))
                    .iter()
                    .map(|&(_, v)| v)
                    .sum()
            };
            let full = played(Budget::iterations(200).every_playout());
            let early = played(Budget::iterations(200));
            assert!(
                (190..=200).contains(&full),
                "seed {seed}: every playout played {full}"
            );
            assert!(
                early <= full,
                "seed {seed}: stopping early played {early} of {full}"
            );
            saved += full - early;
        }
        assert!(saved > 0, "no decision settled early");
    }
}
