//! This process's copies of recently used games.
//!
//! Every process may serve every game, so a copy is only a guess at the store: a read asks the
//! store whether its version is still the copy's ([`crate::store::GameStore::load_if_changed`],
//! which answers "unchanged" without sending the state), and a post applies the action to the
//! copy and lets the compare-and-set judge it. A stale copy costs one more round trip, never a
//! wrong answer.

use std::sync::Arc;

use quick_cache::sync::Cache;

use crate::store::StoredGame;

/// Decoded games by id, at most a fixed number of them.
pub struct GameCache {
    games: Cache<String, Arc<StoredGame>>,
}

impl GameCache {
    /// A cache of at most `capacity` games, or none when `capacity` is 0.
    pub fn new(capacity: usize) -> Option<Self> {
        (capacity > 0).then(|| Self {
            games: Cache::new(capacity),
        })
    }

    /// The copy of game `id`, if this process holds one.
    pub fn get(&self, id: &str) -> Option<Arc<StoredGame>> {
        self.games.get(id)
    }

    /// Keeps `game` unless a newer copy is already held (two requests may finish out of order).
    pub fn offer(&self, game: Arc<StoredGame>) {
        if self
            .games
            .peek(game.id.as_str())
            .is_none_or(|held| held.version < game.version)
        {
            self.games.insert(game.id.clone(), game);
        }
    }

    /// Drops the copy of game `id`.
    pub fn forget(&self, id: &str) {
        self.games.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use roadie_engine::AnyGame;

    use super::*;

    fn game(version: u64) -> Arc<StoredGame> {
        let (game, _) = AnyGame::setup("shrewd-producer", None, 3, 7).expect("setup");
        Arc::new(StoredGame {
            id: "0123456789abcdef01234567".into(),
            version,
            events: 0,
            seed: 7,
            game,
        })
    }

    #[test]
    fn an_older_copy_never_replaces_a_newer_one() {
        let cache = GameCache::new(8).expect("a cache");
        cache.offer(game(5));
        cache.offer(game(4));
        assert_eq!(cache.get("0123456789abcdef01234567").map(|g| g.version), Some(5));
        cache.offer(game(6));
        assert_eq!(cache.get("0123456789abcdef01234567").map(|g| g.version), Some(6));
        cache.forget("0123456789abcdef01234567");
        assert!(cache.get("0123456789abcdef01234567").is_none());
    }

    #[test]
    fn capacity_zero_means_no_cache() {
        assert!(GameCache::new(0).is_none());
    }
}
