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
pub(crate) fn best_by<A>(
    legal: &[A],
    rng: &mut dyn RngCore,
    mut score: impl FnMut(&A) -> f64,
) -> Option<usize> {
    let scores: Vec<f64> = legal.iter().map(&mut score).collect();
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= top).collect();
    if best.is_empty() {
        return None;
    }
    Some(best[rng.random_range(0..best.len())])
}
