//! Room left in the store: new games are refused before it is full, so that the games already
//! running can still be played.
//!
//! Redis with `maxmemory` and the `noeviction` policy refuses every write once it is full,
//! posts to running games included. Creation is refused (`503 store_full`) from
//! `ROADIE_STORE_CREATE_LIMIT_PERCENT` of `maxmemory` on, which leaves the rest for the running
//! games to grow into. The store's create script makes that check in the same atomic step as the
//! write (see [`crate::store::redis`]), so that no burst gets past it. A task also reads the
//! store's memory four times a second: for `/readyz` and `/metrics`, and to refuse early, before
//! a game is set up. Once the store has refused a game, creation stays refused until a reading
//! is under the limit by 1% of `maxmemory`: the store counts the refused game's own bytes while
//! a reading does not, and `creating` should not flicker at the boundary.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::store::{GameStore, MemoryUse};

/// How often the store's memory is read.
const EVERY: Duration = Duration::from_millis(250);

/// The store's memory as last read, and the share of it at which creation stops.
#[derive(Debug)]
pub struct Headroom {
    used: AtomicU64,
    max: AtomicU64,
    known: AtomicBool,
    /// Set when the store refused a new game for room; cleared by a reading with room freed.
    refused: AtomicBool,
    /// Percent of `maxmemory` from which creation is refused; `0` never refuses.
    limit_percent: u64,
}

impl Headroom {
    /// Nothing read yet; creation stops at `limit_percent` percent of the store's limit.
    pub fn new(limit_percent: u64) -> Self {
        Self {
            used: AtomicU64::new(0),
            max: AtomicU64::new(0),
            known: AtomicBool::new(false),
            refused: AtomicBool::new(false),
            limit_percent,
        }
    }

    /// Keeps the figures of a reading.
    pub fn record(&self, reading: MemoryUse) {
        self.used.store(reading.used_bytes, Ordering::Relaxed);
        self.max.store(reading.max_bytes, Ordering::Relaxed);
        self.known.store(true, Ordering::Relaxed);
        // Under the limit by 1% of `maxmemory` (by nothing when the limit is 1% itself).
        let margin = u128::from(reading.max_bytes) * u128::from(self.limit_percent > 1);
        let freed = u128::from(reading.used_bytes) * 100 + margin
            < u128::from(reading.max_bytes) * u128::from(self.limit_percent);
        if reading.max_bytes == 0 || freed {
            self.refused.store(false, Ordering::Relaxed);
        }
    }

    /// Notes that the store refused a new game for room.
    pub fn store_refused(&self) {
        self.refused.store(true, Ordering::Relaxed);
    }

    /// The last reading, if any.
    pub fn reading(&self) -> Option<MemoryUse> {
        self.known.load(Ordering::Relaxed).then(|| MemoryUse {
            used_bytes: self.used.load(Ordering::Relaxed),
            max_bytes: self.max.load(Ordering::Relaxed),
        })
    }

    /// Whether a new game may be stored: always when the store has no limit or the check is
    /// off, else while its use is under the limit's share and the store has not refused a game
    /// since room was last freed.
    pub fn creation_allowed(&self) -> bool {
        if self.refused.load(Ordering::Relaxed) {
            return false;
        }
        match self.reading() {
            Some(MemoryUse {
                used_bytes,
                max_bytes,
            }) if max_bytes > 0 && self.limit_percent > 0 => {
                u128::from(used_bytes) * 100 < u128::from(max_bytes) * u128::from(self.limit_percent)
            }
            _ => true,
        }
    }

    /// Reads `store`'s memory into `headroom` four times a second, for as long as the process runs.
    pub fn watch(headroom: Arc<Self>, store: Arc<dyn GameStore>) {
        actix_web::rt::spawn(async move {
            let mut tick = tokio::time::interval(EVERY);
            loop {
                tick.tick().await;
                match store.memory().await {
                    Ok(Some(reading)) => headroom.record(reading),
                    Ok(None) => return,
                    Err(e) => tracing::debug!(error = %e, "could not read the store's memory"),
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(used: u64, max: u64) -> MemoryUse {
        MemoryUse {
            used_bytes: used,
            max_bytes: max,
        }
    }

    #[test]
    fn creation_stops_at_the_limit_share_of_maxmemory() {
        let headroom = Headroom::new(80);
        assert!(headroom.creation_allowed(), "nothing read yet");
        headroom.record(reading(79, 100));
        assert!(headroom.creation_allowed());
        headroom.record(reading(80, 100));
        assert!(!headroom.creation_allowed());
        headroom.record(reading(u64::MAX, 0));
        assert!(
            headroom.creation_allowed(),
            "a store without maxmemory has no share"
        );
    }

    #[test]
    fn after_the_store_refused_creation_waits_for_room_to_be_freed() {
        let headroom = Headroom::new(80);
        headroom.record(reading(795, 1000));
        headroom.store_refused();
        assert!(!headroom.creation_allowed());
        headroom.record(reading(791, 1000));
        assert!(!headroom.creation_allowed(), "within 1% of the limit");
        headroom.record(reading(789, 1000));
        assert!(headroom.creation_allowed(), "room was freed");
    }

    #[test]
    fn a_limit_of_zero_never_refuses() {
        let headroom = Headroom::new(0);
        headroom.record(reading(100, 100));
        assert!(headroom.creation_allowed());
    }
}
