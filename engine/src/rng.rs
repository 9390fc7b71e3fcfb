//! The seeded random number generator every game keeps in its state.
//!
//! A well-known stream cipher (ChaCha8) seeded from the game's seed: serializable, comparable,
//! and the same on every machine. Games report each outcome it produces as a sealed event.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The game's RNG. It never leaves the engine: no view serializes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// The RNG for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Shuffles `items` in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        items.shuffle(&mut self.0);
    }

    /// A number in `1..=sides`, as a die shows it.
    pub fn roll(&mut self, sides: u8) -> u8 {
        self.0.random_range(1..=sides.max(1))
    }

    /// A uniform index below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (GameRng::new(7), GameRng::new(7));
        let mut x: Vec<u32> = (0..50).collect();
        let mut y = x.clone();
        a.shuffle(&mut x);
        b.shuffle(&mut y);
        assert_eq!(x, y);
        assert_eq!(a.roll(6), b.roll(6));
    }

    #[test]
    fn state_round_trips_through_json() {
        let mut a = GameRng::new(99);
        a.roll(6);
        let json = serde_json::to_string(&a).expect("rng serializes");
        let mut b: GameRng = serde_json::from_str(&json).expect("rng deserializes");
        assert_eq!(a, b);
        assert_eq!(a.roll(20), b.roll(20));
    }
}
