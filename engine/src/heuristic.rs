//! What every game's greedy bot (its `bot.rs`) shares: the seat's view read back into the few
//! fields a heuristic needs, and the pick of the best-scoring action.

use rand::{Rng, RngCore};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The seat's view, read through its JSON into a heuristic's type `V`: the heuristic sees the
/// view exactly as a client in that seat does. `None` when the view does not read as `V`.
pub(crate) fn read<V: DeserializeOwned>(view: &impl Serialize) -> Option<V> {
    let json = serde_json::to_string(view).ok()?;
    serde_json::from_str(&json).ok()
}

/// The index of the best-scoring action, ties broken by `rng`; `None` for an empty list.
///
/// The expert's playouts ask this at every step, so it allocates nothing for lists of up to
/// [`STACK_SCORES`] actions: the scores sit on the stack, and the tie among the best is drawn
/// as an index into the tied actions in list order, the same draw as from a list of them.
pub(crate) fn best_by<A>(
    legal: &[A],
    rng: &mut dyn RngCore,
    mut score: impl FnMut(&A) -> f64,
) -> Option<usize> {
    let mut stack = [0.0f64; STACK_SCORES];
    let mut heap = Vec::new();
    let scores: &mut [f64] = if legal.len() <= STACK_SCORES {
        &mut stack[..legal.len()]
    } else {
        heap.resize(legal.len(), 0.0);
        &mut heap
    };
    for (slot, action) in scores.iter_mut().zip(legal) {
        *slot = score(action);
    }
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied = scores.iter().filter(|&&s| s >= top).count();
    if tied == 0 {
        return None;
    }
    let nth = rng.random_range(0..tied);
    scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s >= top)
        .nth(nth)
        .map(|(i, _)| i)
}

/// The longest list of actions [`best_by`] scores without allocating.
const STACK_SCORES: usize = 64;

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The pick of the old two-list form: every score, then the tied indices, one drawn.
    fn listed_pick(scores: &[f64], rng: &mut dyn RngCore) -> Option<usize> {
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= top).collect();
        if best.is_empty() {
            return None;
        }
        Some(best[rng.random_range(0..best.len())])
    }

    #[test]
    fn best_by_draws_the_same_tie_as_a_list_of_the_tied_actions() {
        let mut make = ChaCha8Rng::seed_from_u64(3);
        for case in 0..400u64 {
            let len = make.random_range(0..(STACK_SCORES * 2));
            let scores: Vec<f64> = (0..len)
                .map(|_| match make.random_range(0..8) {
                    0 => f64::NAN,
                    1 => f64::NEG_INFINITY,
                    k => f64::from(k % 3),
                })
                .collect();
            let mut a = ChaCha8Rng::seed_from_u64(case);
            let mut b = ChaCha8Rng::seed_from_u64(case);
            assert_eq!(
                best_by(&scores, &mut a, |&s| s),
                listed_pick(&scores, &mut b),
                "case {case}: {scores:?}"
            );
            assert_eq!(a.next_u64(), b.next_u64(), "case {case}: the rng moved alike");
        }
    }
}
