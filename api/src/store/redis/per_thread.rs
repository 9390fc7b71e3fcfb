//! A connection for each thread that talks to Redis.
//!
//! A multiplexed connection is driven by a task on the runtime that opened it. Shared by every
//! worker, each command a worker sent woke that task on another thread, and each answer woke the
//! worker back: two cross-thread wake-ups (an `eventfd` write and a context switch each) per
//! command, about a tenth of the service's CPU under load. Each actix worker runs its own
//! single-threaded runtime, so a connection opened by the worker itself is driven on the thread
//! that sends on it, and a command's round trip stays on one thread.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use redis::aio::ConnectionLike;
use redis::{Cmd, Pipeline, RedisFuture, RedisResult, Value};

/// Opens a connection; called once on each thread, lazily, from inside that thread's runtime.
type Open<C> = dyn Fn() -> RedisResult<C> + Send + Sync;

/// Tells one [`PerThread`] family's connections from another's in a thread's table.
static FAMILIES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's connections, by family.
    static OPENED: RefCell<HashMap<u64, Box<dyn Any>>> = RefCell::new(HashMap::new());
}

/// A connection that is, on each thread, that thread's own connection `C`, opened on first use.
pub struct PerThread<C> {
    family: u64,
    open: Arc<Open<C>>,
}

impl<C> Clone for PerThread<C> {
    fn clone(&self) -> Self {
        Self {
            family: self.family,
            open: Arc::clone(&self.open),
        }
    }
}

impl<C: Clone + 'static> PerThread<C> {
    /// Connections made by `open`, one per thread.
    pub fn new(open: impl Fn() -> RedisResult<C> + Send + Sync + 'static) -> Self {
        Self {
            family: FAMILIES.fetch_add(1, Ordering::Relaxed),
            open: Arc::new(open),
        }
    }

    /// This thread's connection, opened now if it has none.
    fn here(&self) -> RedisResult<C> {
        OPENED.with(|opened| {
            let mut opened = opened.borrow_mut();
            if let Some(conn) = opened.get(&self.family).and_then(|c| c.downcast_ref::<C>()) {
                return Ok(conn.clone());
            }
            let conn = (self.open)()?;
            opened.insert(self.family, Box::new(conn.clone()));
            Ok(conn)
        })
    }
}

impl<C> ConnectionLike for PerThread<C>
where
    C: ConnectionLike + Clone + Send + 'static,
{
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        let conn = self.here();
        Box::pin(async move { conn?.req_packed_command(cmd).await })
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        let conn = self.here();
        Box::pin(async move { conn?.req_packed_commands(pipeline, offset, count).await })
    }

    fn get_db(&self) -> i64 {
        self.here().map(|conn| conn.get_db()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct Numbered(u64);

    #[test]
    fn each_thread_opens_its_own_connection_once() {
        let opened = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&opened);
        let conns = PerThread::new(move || Ok(Numbered(counter.fetch_add(1, Ordering::SeqCst))));
        let first = conns.here().expect("opens").0;
        assert_eq!(
            conns.here().expect("reuses").0,
            first,
            "the same thread reuses its connection"
        );
        let other = {
            let conns = conns.clone();
            std::thread::spawn(move || conns.here().expect("opens").0)
                .join()
                .expect("thread ends")
        };
        assert_ne!(other, first, "another thread opens its own");
        assert_eq!(opened.load(Ordering::SeqCst), 2);
        let elsewhere = PerThread::new(|| Ok(Numbered(99)));
        assert_eq!(
            elsewhere.here().expect("opens").0,
            99,
            "families do not share connections"
        );
        assert_eq!(conns.here().expect("still here").0, first);
    }
}
