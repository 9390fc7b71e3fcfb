//! Webhook outboxes in memory, with the due set's rules of the Redis store (one process).

use std::time::Duration;

use async_trait::async_trait;

use super::MemoryStore;
use crate::store::{CLAIM_SCAN, Claim, Failure, Outbox, OutboxNotice, Pending, Room, StoreError, due_shard};

/// A game of the due set, in milliseconds since the store's epoch.
#[derive(Clone, Debug, Default)]
pub(super) struct Due {
    /// From when it may be claimed.
    at: u64,
    /// When a write last marked it.
    marked: u64,
    /// The receiver its last mark named.
    receiver: String,
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl MemoryStore {
    fn now_ms(&self) -> u64 {
        millis(self.epoch.elapsed())
    }

    fn due(&self) -> Result<std::sync::MutexGuard<'_, std::collections::HashMap<String, Due>>, StoreError> {
        self.due
            .lock()
            .map_err(|_| StoreError::Unavailable("the in-memory store is poisoned".into()))
    }
}

#[async_trait]
impl Outbox for MemoryStore {
    async fn mark_due(&self, id: &str, receiver: &str) -> Result<(), StoreError> {
        let now = self.now_ms();
        let mut due = self.due()?;
        match due.get_mut(id) {
            Some(entry) => {
                entry.at += 1;
                entry.marked = now;
                receiver.clone_into(&mut entry.receiver);
            }
            None => {
                due.insert(
                    id.to_owned(),
                    Due {
                        at: now,
                        marked: now,
                        receiver: receiver.to_owned(),
                    },
                );
            }
        }
        Ok(())
    }

    async fn claim_due(&self, shard: u16, room: &Room, lease: Duration) -> Result<Vec<Claim>, StoreError> {
        let now = self.now_ms();
        let lease_until = now.saturating_add(millis(lease).max(1));
        let mut due = self.due()?;
        let mut ready: Vec<(u64, String)> = due
            .iter()
            .filter(|(game, due)| due.at <= now && due_shard(game) == shard)
            .map(|(game, due)| (due.at, game.clone()))
            .collect();
        ready.sort();
        ready.truncate(CLAIM_SCAN);
        let mut left: std::collections::HashMap<String, usize> = room.per_receiver.iter().cloned().collect();
        let mut claims = Vec::new();
        for (_, game) in ready {
            if claims.len() >= room.games {
                break;
            }
            let Some(entry) = due.get_mut(&game) else {
                continue;
            };
            let room_left = left.entry(entry.receiver.clone()).or_insert(room.other);
            if *room_left == 0 {
                continue;
            }
            *room_left -= 1;
            entry.at = lease_until;
            claims.push(Claim {
                game,
                lease_until,
                receiver: entry.receiver.clone(),
            });
        }
        Ok(claims)
    }

    async fn pending(&self, id: &str, limit: usize) -> Result<Option<Pending>, StoreError> {
        let mut games = self.lock()?;
        Ok(Self::live(&mut games, id).and_then(|entry| {
            let webhook = entry.game.webhook.clone()?;
            Some(Pending {
                webhook,
                notices: entry.outbox.iter().take(limit).cloned().collect(),
            })
        }))
    }

    async fn delivered(&self, id: &str, notice: &OutboxNotice) -> Result<(), StoreError> {
        let mut games = self.lock()?;
        if let Some(entry) = Self::live(&mut games, id) {
            entry.outbox.retain(|n| n.id != notice.id);
            entry.outbox_tries.remove(&notice.id);
        }
        Ok(())
    }

    async fn failed(
        &self,
        id: &str,
        notice: &OutboxNotice,
        max_attempts: u32,
    ) -> Result<Failure, StoreError> {
        let mut games = self.lock()?;
        let Some(entry) = Self::live(&mut games, id) else {
            return Ok(Failure {
                attempts: 1,
                dropped: true,
                superseded: false,
            });
        };
        if !entry.outbox.iter().any(|n| n.id == notice.id) {
            entry.outbox_tries.remove(&notice.id);
            return Ok(Failure {
                attempts: 0,
                dropped: false,
                superseded: true,
            });
        }
        let attempts = entry.outbox_tries.entry(notice.id.clone()).or_insert(0);
        *attempts += 1;
        let attempts = *attempts;
        let dropped = attempts >= max_attempts.max(1);
        if dropped {
            entry.outbox.retain(|n| n.id != notice.id);
            entry.outbox_tries.remove(&notice.id);
        }
        Ok(Failure {
            attempts,
            dropped,
            superseded: false,
        })
    }

    async fn release(
        &self,
        claim: &Claim,
        lease: Duration,
        retry_in: Option<Duration>,
        grace: Duration,
    ) -> Result<(), StoreError> {
        let now = self.now_ms();
        let mut due = self.due()?;
        let (score, marked) = match due.get(&claim.game) {
            Some(entry) => (Some(entry.at), entry.marked),
            None => (None, 0),
        };
        if score.is_some_and(|s| s >= claim.lease_until.saturating_add(millis(lease).max(1))) {
            return Ok(());
        }
        let grace = millis(grace);
        let at = match retry_in {
            Some(delay) => now.saturating_add(millis(delay)),
            None if score == Some(claim.lease_until) && now.saturating_sub(marked) >= grace => {
                due.remove(&claim.game);
                return Ok(());
            }
            None if score == Some(claim.lease_until) => marked.saturating_add(grace),
            None => now,
        };
        due.entry(claim.game.clone())
            .or_insert_with(|| Due {
                receiver: claim.receiver.clone(),
                ..Due::default()
            })
            .at = at;
        Ok(())
    }

    async fn lease_outbox_shard(
        &self,
        shard: u16,
        _holder: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.lease_index("webhooks", shard, lease)
    }

    async fn move_unsharded_outboxes(&self, _limit: usize) -> Result<u64, StoreError> {
        // Memory keeps nothing from an earlier version.
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{GameStore, Retention, Table};

    fn store() -> MemoryStore {
        MemoryStore::new(Retention {
            idle: Duration::from_secs(60),
            finished: Duration::from_secs(60),
        })
    }

    const LEASE: Duration = Duration::from_secs(30);

    /// The shard of the tests' games, whose ids are not hex: the first.
    const SHARD: u16 = 0;

    fn room(games: usize) -> Room {
        Room {
            games,
            per_receiver: Vec::new(),
            other: games,
        }
    }

    async fn claimed(store: &MemoryStore) -> Vec<String> {
        let claims = store.claim_due(SHARD, &room(10), LEASE).await.expect("claim");
        claims.into_iter().map(|c| c.game).collect()
    }

    fn notice(id: &str, kind: &str, seats: &[u64]) -> OutboxNotice {
        OutboxNotice {
            id: id.into(),
            body: serde_json::json!({"id": id, "game": "g", "type": kind, "version": 1, "timestamp": 0,
                "seats": seats, "to_act": seats})
            .to_string(),
        }
    }

    /// A write of game "g" after `prior`, adding `notices`.
    async fn write(store: &MemoryStore, prior: &Table, notices: Vec<OutboxNotice>) -> Table {
        let mut next = prior.clone();
        next.revision = prior.revision.next();
        next.notices = notices;
        let saved = store
            .save(&prior.revision, &next, &[], &[], None)
            .await
            .expect("save");
        assert!(matches!(saved, crate::store::Saved::Written));
        next
    }

    async fn outbox(store: &MemoryStore) -> Vec<String> {
        let pending = store
            .pending("g", 100)
            .await
            .expect("pending")
            .expect("a webhook");
        pending.notices.into_iter().map(|n| n.id).collect()
    }

    #[tokio::test]
    async fn a_write_coalesces_the_outbox_and_a_notice_being_delivered_meanwhile_leaves_its_successor() {
        let store = store();
        let (game, _) = roadie_engine::AnyGame::setup("shrewd-producer", None, 3, 11).expect("setup");
        let mut stored = Table {
            id: "g".into(),
            revision: crate::store::Revision::first(),
            events: 0,
            seed: 11,
            salt: String::new(),
            clock: None,
            game,
            seats: Default::default(),
            webhook: Some(crate::store::Webhook {
                url: "http://r/".into(),
                secret: "s".into(),
            }),
            app: None,
            options: None,
            rules_version: 1,
            forked_from: None,
            aborted: false,
            rated: None,
            notices: vec![notice("n0", "your_turn", &[0])],
        };
        assert!(store.create(&stored, &[], &[]).await.expect("create"));
        stored.notices.clear();
        for i in 1..200 {
            let seat = i % 3;
            stored = write(
                &store,
                &stored,
                vec![notice(&format!("n{i}"), "your_turn", &[seat])],
            )
            .await;
        }
        assert_eq!(outbox(&store).await, ["n197", "n198", "n199"]);
        // A sweeper reads n197 and posts it; meanwhile a write supersedes it.
        let posted = store
            .pending("g", 1)
            .await
            .expect("pending")
            .expect("a webhook")
            .notices;
        stored = write(&store, &stored, vec![notice("n200", "your_turn", &[2])]).await;
        assert_eq!(outbox(&store).await, ["n198", "n199", "n200"]);
        let failure = store.failed("g", &posted[0], 3).await.expect("failed");
        assert!(failure.superseded && !failure.dropped, "{failure:?}");
        store.delivered("g", &posted[0]).await.expect("delivered");
        assert_eq!(outbox(&store).await, ["n198", "n199", "n200"]);
        write(&store, &stored, vec![notice("end", "game_over", &[])]).await;
        assert_eq!(outbox(&store).await, ["end"]);
    }

    #[tokio::test]
    async fn a_claim_passes_over_the_games_of_a_receiver_without_room() {
        let store = store();
        for game in ["h1", "h2", "h3"] {
            store.mark_due(game, "hang:80").await.expect("mark");
        }
        store.mark_due("ok", "ok:80").await.expect("mark");
        let room = Room {
            games: 10,
            per_receiver: vec![("hang:80".into(), 1)],
            other: 5,
        };
        let claims = store.claim_due(SHARD, &room, LEASE).await.expect("claim");
        let games: Vec<(&str, &str)> = claims
            .iter()
            .map(|c| (c.game.as_str(), c.receiver.as_str()))
            .collect();
        assert_eq!(games, [("h1", "hang:80"), ("ok", "ok:80")]);
    }

    #[tokio::test]
    async fn a_game_is_claimed_from_its_own_shard_only() {
        let store = store();
        let game = "1f0000000000000000000000";
        store.mark_due(game, "r:80").await.expect("mark");
        let shard = due_shard(game);
        assert_eq!(shard, 0x1f % crate::store::due_shards());
        for other in (0..crate::store::due_shards()).filter(|s| *s != shard) {
            let claims = store.claim_due(other, &room(10), LEASE).await.expect("claim");
            assert!(claims.is_empty(), "claimed from shard {other}");
        }
        let claims = store.claim_due(shard, &room(10), LEASE).await.expect("claim");
        assert_eq!(claims.len(), 1);
        assert!(store.lease_outbox_shard(shard, "a", LEASE).await.expect("lease"));
        assert!(!store.lease_outbox_shard(shard, "b", LEASE).await.expect("lease"));
    }

    #[tokio::test]
    async fn a_claimed_game_is_nobody_elses_until_released_even_when_marked_again() {
        let store = store();
        store.mark_due("g", "r:80").await.expect("mark");
        let claims = store.claim_due(SHARD, &room(10), LEASE).await.expect("claim");
        assert_eq!(claims.len(), 1);
        assert!(claimed(&store).await.is_empty(), "claimed twice");
        store.mark_due("g", "r:80").await.expect("mark");
        assert!(claimed(&store).await.is_empty(), "a mark broke the lease");
        // Released with an empty outbox: the mark during the lease makes it due at once.
        store
            .release(&claims[0], LEASE, None, Duration::ZERO)
            .await
            .expect("release");
        assert_eq!(claimed(&store).await, ["g"]);
    }

    #[tokio::test]
    async fn an_empty_outbox_keeps_its_game_due_while_a_write_marked_just_before_may_land() {
        let store = store();
        let grace = Duration::from_millis(200);
        store.mark_due("g", "r:80").await.expect("mark");
        let claims = store.claim_due(SHARD, &room(10), LEASE).await.expect("claim");
        store
            .release(&claims[0], LEASE, None, grace)
            .await
            .expect("release");
        assert!(claimed(&store).await.is_empty(), "due again before the grace");
        tokio::time::sleep(grace + Duration::from_millis(50)).await;
        let claims = store.claim_due(SHARD, &room(10), LEASE).await.expect("claim");
        assert_eq!(claims.len(), 1, "the game was dropped within the grace");
        store
            .release(&claims[0], LEASE, None, grace)
            .await
            .expect("release");
        tokio::time::sleep(grace + Duration::from_millis(50)).await;
        assert!(claimed(&store).await.is_empty(), "an empty outbox stays due");
    }

    #[tokio::test]
    async fn a_failed_game_is_due_again_after_its_delay() {
        let store = store();
        store.mark_due("g", "r:80").await.expect("mark");
        let claims = store.claim_due(SHARD, &room(10), LEASE).await.expect("claim");
        let delay = Duration::from_millis(100);
        store
            .release(&claims[0], LEASE, Some(delay), Duration::ZERO)
            .await
            .expect("release");
        assert!(claimed(&store).await.is_empty());
        tokio::time::sleep(delay + Duration::from_millis(50)).await;
        assert_eq!(claimed(&store).await, ["g"]);
    }
}
