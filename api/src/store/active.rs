//! The games that may still need the server: every game from its creation until the reconciler
//! finds nothing left to do for it, in [`ACTIVE_SHARDS`] sets by id, so that a sweep walks one
//! shard at a time (with `SSCAN`, never blocking the store) and the shards spread over a
//! Cluster's nodes. The reconciler also asks whether a game has its due entries.

use std::time::Duration;

use async_trait::async_trait;

use super::{StoreError, Work};

/// How many sets the active games are spread over.
pub const ACTIVE_SHARDS: u16 = 16;

/// The shard of game `id` among `shards`: its first byte, modulo `shards` ([`ACTIVE_SHARDS`] for
/// the sets of active games).
pub fn shard_of(id: &str, shards: u16) -> u16 {
    id.get(..2)
        .and_then(|byte| u16::from_str_radix(byte, 16).ok())
        .unwrap_or(0)
        % shards.max(1)
}

/// A page of one shard's games.
#[derive(Debug, Default)]
pub struct ActivePage {
    /// Where the next page starts; 0 once the shard has been walked whole.
    pub cursor: u64,
    /// The games.
    pub ids: Vec<String>,
}

/// The sets of active games, and what the reconciler asks of the indexes of due work.
#[async_trait]
pub trait ActiveGames {
    /// Adds game `id` to its shard.
    async fn track(&self, id: &str) -> Result<(), StoreError>;

    /// Takes game `id` out of its shard: nothing is left for the server to do in it.
    async fn untrack(&self, id: &str) -> Result<(), StoreError>;

    /// A page of about `count` games of `shard`, from `cursor` (0: the start).
    async fn active_page(&self, shard: u16, cursor: u64, count: usize) -> Result<ActivePage, StoreError>;

    /// Takes `shard` for the reconciler for `lease`, unless another process holds it: whether
    /// this one has it now.
    async fn lease_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError>;

    /// Whether game `id` is filed for `work` (claimed or not), in its shard.
    async fn is_due(&self, work: Work, id: &str) -> Result<bool, StoreError>;

    /// Whether game `id` is in its shard of the index of clocks.
    async fn clock_filed(&self, id: &str) -> Result<bool, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_falls_in_a_shard_and_ids_spread_over_all() {
        let mut seen = [0u32; ACTIVE_SHARDS as usize];
        for byte in 0..=255u16 {
            let id = format!("{byte:02x}0000000000000000000000");
            seen[usize::from(shard_of(&id, ACTIVE_SHARDS))] += 1;
        }
        assert!(seen.iter().all(|&n| n == 16), "{seen:?}");
        assert_eq!(shard_of("", ACTIVE_SHARDS), 0);
        assert_eq!(shard_of("ff00", 4), 3);
        assert_eq!(shard_of("ff00", 0), 0);
    }
}
