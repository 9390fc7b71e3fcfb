//! Work due apart from requests (a bot's turn, a finished game's archiving), shared by every
//! process: for each kind of [`Work`], [`due_shards`] indexes, a game in the one of its id's
//! shard ([`due_shard`]), so that on a Redis Cluster the work spreads over the nodes.
//!
//! A sweeper claims only in the shards it holds a lease on ([`DueWork::lease_due_shard`], taken
//! for a couple of sweep periods and never renewed while it holds: once it lapses any process may
//! take it), so that two processes never sweep one shard at once; [`HeldShards`] keeps a
//! process's own account of the leases it took. A process that dies loses its leases when they
//! lapse.
//!
//! An index files each game under the time (Unix ms) from which a worker may claim it. A write
//! that leaves work to do files its game before it writes ([`DueWork::file_work`]: an early entry
//! is harmless, a missing one is not), with the time of the filing. A claim moves the entry to
//! the end of a lease, so that no other process takes the game while the work is done; a process
//! that dies holding one loses it when the lease runs out. The worker then writes through the
//! one write path (or to the archive) and ends its claim ([`DueWork::release_work`]), which
//! removes the entry only while it is still the claim's: a game filed again meanwhile stays due.
//! When the worker did nothing, a filing newer than `grace` before its claim keeps the entry too
//! (due at the filing plus the grace), since the write filed then may not have landed when the
//! worker read the game.

use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::StoreError;
use super::active::shard_of;

/// How many shards each index of due work (and the index of clocks) is spread over unless
/// `ROADIE_DUE_SHARDS` says otherwise.
pub const DEFAULT_DUE_SHARDS: u16 = 16;

/// The most shards an index may be spread over.
pub const MAX_DUE_SHARDS: u16 = 256;

/// How many shards each index of due work is spread over in this process: set once at start,
/// before the store is used. Every process must agree on it, since it names the keys.
static DUE_SHARDS: AtomicU16 = AtomicU16::new(DEFAULT_DUE_SHARDS);

/// How many shards each index of due work (and the index of clocks) is spread over.
pub fn due_shards() -> u16 {
    DUE_SHARDS.load(Ordering::Relaxed)
}

/// Spreads every index of due work over `shards` shards (1 to [`MAX_DUE_SHARDS`]), from now on:
/// called at start, before any index is read or written.
pub fn set_due_shards(shards: u16) {
    DUE_SHARDS.store(shards.clamp(1, MAX_DUE_SHARDS), Ordering::Relaxed);
}

/// The shard of game `id` in the indexes of due work and of clocks.
pub fn due_shard(id: &str) -> u16 {
    shard_of(id, due_shards())
}

/// A kind of work done apart from requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Work {
    /// A bot that searches is to act ([`crate::table::bots::turn_due`]).
    BotTurn,
    /// A finished game is to be written to the archive.
    Archive,
    /// A finished rated game's ratings are to be written.
    Rate,
}

impl Work {
    /// The index's name: the hash tag of its keys.
    pub fn name(self) -> &'static str {
        match self {
            Work::BotTurn => "bots",
            Work::Archive => "archive",
            Work::Rate => "ratings",
        }
    }
}

/// A game claimed by a worker, until the lease runs out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueClaim {
    /// The kind of work.
    pub work: Work,
    /// The game.
    pub id: String,
    /// The game's shard ([`due_shard`]).
    pub shard: u16,
    /// When the claim was taken (Unix ms).
    pub at_ms: u64,
    /// When its lease runs out (Unix ms): the entry's score while the claim holds.
    pub until_ms: u64,
}

/// How a claim ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DueEnd {
    /// The worker did the work: any write filed before the claim has landed or lost its race to
    /// it.
    Done,
    /// The worker did nothing: a filing within `grace` before the claim may belong to a write
    /// still in flight.
    Idle {
        /// Within how long any write has landed or failed.
        grace: Duration,
    },
}

/// The indexes of work due.
#[async_trait]
pub trait DueWork {
    /// Files game `id` as due for `work` at `now_ms`, whatever its entry was (a claim included:
    /// the work must be looked at again).
    async fn file_work(&self, work: Work, id: &str, now_ms: u64) -> Result<(), StoreError>;

    /// Claims up to `limit` games of `shard` due for `work` at `now_ms`, each leased for `lease`,
    /// earliest first.
    async fn claim_work(
        &self,
        work: Work,
        shard: u16,
        now_ms: u64,
        lease: Duration,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError>;

    /// Ends `claim` as `end` says (see the module's documentation).
    async fn release_work(&self, claim: &DueClaim, end: DueEnd) -> Result<(), StoreError>;

    /// How many games are filed for `work` in every shard, claimed or not: its backlog.
    async fn work_backlog(&self, work: Work) -> Result<u64, StoreError>;

    /// Takes `shard` of `work`'s index for `holder` for `lease`, unless it is held (by anyone,
    /// `holder` included: a lease is never extended): whether `holder` has it now.
    async fn lease_due_shard(
        &self,
        work: Work,
        shard: u16,
        holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError>;

    /// Takes `shard` of the index of clocks for the clock sweep, as
    /// [`DueWork::lease_due_shard`] does.
    async fn lease_clock_shard(&self, shard: u16, holder: &str, lease: Duration) -> Result<bool, StoreError>;
}

/// A sweeper's own account of the shard leases it took: which shards it may sweep now.
#[derive(Debug)]
pub struct HeldShards {
    holder: String,
    lease: Duration,
    until: Vec<Option<Instant>>,
    next: u16,
}

impl HeldShards {
    /// Leases of `lease` each, taken under a name of this process's own.
    pub fn new(lease: Duration) -> Self {
        Self {
            holder: format!("{}:{}", std::process::id(), rand::random::<u32>()),
            lease,
            until: vec![None; usize::from(due_shards())],
            next: 0,
        }
    }

    /// Every shard, starting at a different one each sweep so that none is always last.
    pub fn rotation(&mut self) -> impl Iterator<Item = u16> + use<> {
        let shards = due_shards();
        let start = self.next % shards;
        self.next = (start + 1) % shards;
        (0..shards).map(move |i| (start + i) % shards)
    }

    /// Whether this process holds `shard` now, taking its lease with `take` (given the holder
    /// and the lease) unless a lease it took still has a tenth of its time to run.
    pub async fn hold(
        &mut self,
        shard: u16,
        take: impl AsyncFnOnce(&str, Duration) -> Result<bool, StoreError>,
    ) -> Result<bool, StoreError> {
        let now = Instant::now();
        let index = usize::from(shard % due_shards());
        if index >= self.until.len() {
            self.until.resize(index + 1, None);
        }
        let slot = &mut self.until[index];
        if slot.is_some_and(|until| until > now + self.lease / 10) {
            return Ok(true);
        }
        // Counted from before the request: the store's lease runs out no earlier.
        let taken = take(&self.holder, self.lease).await?;
        *slot = taken.then(|| now + self.lease);
        Ok(taken)
    }
}

/// Milliseconds in `d`, saturating.
pub(super) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
