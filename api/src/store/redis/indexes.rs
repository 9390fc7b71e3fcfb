//! Indexes of games by owner, in Redis: one sorted set each, `roadie:index:<name>`, game ids
//! scored by creation time (Unix ms). Each is its own key (no hash tag), so an app's indexes
//! spread over a Cluster's nodes; no command touches two of them at once.

use async_trait::async_trait;
use redis::aio::ConnectionLike;

use super::RedisStore;
use crate::store::indexes::after;
use crate::store::{Indexed, Indexes, StoreError};

/// Entries read past a page's end, for those that share the page boundary's creation time.
const TIES: usize = 16;

fn key(index: &str) -> String {
    format!("roadie:index:{index}")
}

#[async_trait]
impl<C> Indexes for RedisStore<C>
where
    C: ConnectionLike + Clone + Send + Sync + 'static,
{
    async fn index(&self, indexes: &[String], id: &str, created_ms: u64) -> Result<(), StoreError> {
        for index in indexes {
            let _: i64 = self
                .run(async |conn| {
                    redis::cmd("ZADD")
                        .arg(key(index))
                        .arg(created_ms)
                        .arg(id)
                        .query_async(conn)
                        .await
                })
                .await?;
        }
        Ok(())
    }

    async fn unindex(&self, index: &str, id: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .run(async |conn| redis::cmd("ZREM").arg(key(index)).arg(id).query_async(conn).await)
            .await?;
        Ok(())
    }

    async fn indexed(
        &self,
        index: &str,
        before: Option<&Indexed>,
        limit: usize,
    ) -> Result<Vec<Indexed>, StoreError> {
        let max = before.map_or_else(|| "+inf".to_owned(), |b| b.created_ms.to_string());
        let raw: Vec<(String, u64)> = self
            .run(async |conn| {
                redis::cmd("ZREVRANGEBYSCORE")
                    .arg(key(index))
                    .arg(&max)
                    .arg("-inf")
                    .arg("WITHSCORES")
                    .arg("LIMIT")
                    .arg(0)
                    .arg(limit + TIES)
                    .query_async(conn)
                    .await
            })
            .await?;
        Ok(raw
            .into_iter()
            .map(|(id, created_ms)| Indexed { id, created_ms })
            .filter(|entry| before.is_none_or(|b| after(entry, b)))
            .take(limit)
            .collect())
    }

    async fn indexed_count(&self, index: &str) -> Result<u64, StoreError> {
        self.run(async |conn| redis::cmd("ZCARD").arg(key(index)).query_async(conn).await)
            .await
    }
}
