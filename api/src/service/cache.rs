//! This process's copies of recently used games.
//!
//! Every process may serve every game, so a copy is only a guess at the store: a read asks the
//! store whether its version is still the copy's ([`crate::store::GameStore::load_if_changed`],
//! which answers "unchanged" without sending the state), and a post applies the action to the
//! copy and lets the compare-and-set judge it. A stale copy costs one more round trip, never a
//! wrong answer.

use std::sync::Arc;

use quick_cache::sync::Cache;

use crate::store::Table;

/// Decoded games by id, at most a fixed number of them.
pub struct GameCache {
    games: Cache<String, Arc<Table>>,
}

impl GameCache {
    /// A cache of at most `capacity` games, or none when `capacity` is 0.
    pub fn new(capacity: usize) -> Option<Self> {
        (capacity > 0).then(|| Self {
            games: Cache::new(capacity),
        })
    }

    /// The copy of game `id`, if this process holds one.
    pub fn get(&self, id: &str) -> Option<Arc<Table>> {
        self.games.get(id)
    }

    /// Keeps `game`, which the store has just confirmed or written. Two requests may finish out
    /// of order and leave the older copy: that costs the next use one more round trip, never a
    /// wrong answer. A copy is never kept for having a higher number, because after the store
    /// loses recent writes the copy with the higher number is the one from the lost timeline.
    pub fn offer(&self, game: Arc<Table>) {
        self.games.insert(game.id.clone(), game);
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
    use crate::store::Revision;

    fn game(revision: Revision) -> Arc<Table> {
        let (game, _) = AnyGame::setup("shrewd-producer", None, 3, 7).expect("setup");
        Arc::new(Table {
            id: "0123456789abcdef01234567".into(),
            revision,
            events: 0,
            seed: 7,
            salt: String::new(),
            clock: None,
            game,
            seats: Default::default(),
            webhook: None,
            app: None,
            options: None,
            rules_version: 1,
            forked_from: None,
            aborted: false,
            rated: None,
            notices: Vec::new(),
        })
    }

    #[test]
    fn the_copy_the_store_confirmed_last_is_kept_even_with_a_lower_number() {
        let cache = GameCache::new(8).expect("a cache");
        let four = Revision::first().next().next().next();
        let lost_five = four.next();
        cache.offer(game(lost_five));
        // The store lost revision 5 and wrote another 5 after 4: only that one may be held.
        let real_five = four.next();
        cache.offer(game(four));
        assert_eq!(
            cache.get("0123456789abcdef01234567").map(|g| g.revision),
            Some(four)
        );
        cache.offer(game(real_five));
        assert_eq!(
            cache.get("0123456789abcdef01234567").map(|g| g.revision),
            Some(real_five)
        );
        cache.forget("0123456789abcdef01234567");
        assert!(cache.get("0123456789abcdef01234567").is_none());
    }

    #[test]
    fn capacity_zero_means_no_cache() {
        assert!(GameCache::new(0).is_none());
    }
}
