//! Watching games as they are played: with `--streams-per-game K`, each game gets `K` spectator
//! push streams (`GET /v1/games/{id}/stream`) from the moment it is created until its `end`
//! message, so about `K × --connections` streams are open at once. Each stream counts the events
//! it delivered (`id:` lines) and fails the run unless it ends with `end`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use crate::client::Server;

/// What every stream of a run delivered.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StreamStats {
    /// Streams opened.
    pub streams: u64,
    /// Events delivered, over all streams.
    pub events: u64,
    /// Bytes of response bodies and headers received.
    pub bytes: u64,
    /// Why streams failed, the first few.
    pub failures: Vec<String>,
    pub failure_count: u64,
}

impl StreamStats {
    pub fn merge(&mut self, other: StreamStats) {
        self.streams += other.streams;
        self.events += other.events;
        self.bytes += other.bytes;
        self.failure_count += other.failure_count;
        self.failures.extend(other.failures.into_iter().take(8));
        self.failures.truncate(8);
    }
}

/// The streams opened so far, to be awaited once every game is played.
#[derive(Default)]
pub struct Watchers {
    tasks: Mutex<Vec<JoinHandle<StreamStats>>>,
}

impl Watchers {
    /// Opens `count` spectator streams of game `id`, each read until the game ends or `deadline`.
    pub async fn watch(&self, server: &Server, id: &str, count: usize, deadline: Instant) {
        let mut tasks = self.tasks.lock().await;
        for _ in 0..count {
            let (server, id) = (server.clone(), id.to_owned());
            tasks.push(tokio::spawn(async move {
                let mut stats = StreamStats {
                    streams: 1,
                    ..StreamStats::default()
                };
                if let Err(why) = read(&server, &id, deadline, &mut stats).await {
                    stats.failure_count += 1;
                    stats.failures.push(format!("stream of {id}: {why}"));
                }
                stats
            }));
        }
    }

    /// Waits for every stream and adds up what they delivered.
    pub async fn finish(self: Arc<Self>) -> StreamStats {
        let tasks = std::mem::take(&mut *self.tasks.lock().await);
        let mut total = StreamStats::default();
        for task in tasks {
            match task.await {
                Ok(stats) => total.merge(stats),
                Err(e) => total.merge(StreamStats {
                    failure_count: 1,
                    failures: vec![format!("a stream's task ended abnormally: {e}")],
                    ..StreamStats::default()
                }),
            }
        }
        total
    }
}

/// Reads one stream to its end, counting `id:` lines. Each message arrives whole in one chunk,
/// so a line never straddles a chunk header; the last bytes of a read are kept for the next, so
/// a line split between two reads is found once.
async fn read(server: &Server, id: &str, deadline: Instant, stats: &mut StreamStats) -> Result<(), String> {
    let mut socket = TcpStream::connect(server.addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let request = format!(
        "GET /v1/games/{id}/stream HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.host
    );
    socket
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("send: {e}"))?;
    let mut buffer = vec![0u8; 16 * 1024];
    let mut carried: Vec<u8> = Vec::new();
    let mut head = true;
    let mut ended = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let read = tokio::time::timeout(left.max(Duration::from_millis(1)), socket.read(&mut buffer))
            .await
            .map_err(|_| "the game did not end within the time limit".to_owned())?
            .map_err(|e| format!("read: {e}"))?;
        if read == 0 {
            break;
        }
        stats.bytes += read as u64;
        let seen = carried.len();
        carried.extend_from_slice(&buffer[..read]);
        if head {
            if !carried.starts_with(b"HTTP/1.1 200") {
                let line = carried.split(|b| *b == b'\r').next().unwrap_or_default();
                return Err(format!("answered {}", String::from_utf8_lossy(line)));
            }
            head = false;
        }
        stats.events += count_new(&carried, b"\nid: ", seen) as u64;
        ended |= count_new(&carried, b"\nevent: end\n", seen) > 0;
        let keep = carried.len().saturating_sub(11);
        carried.drain(..keep);
    }
    if ended {
        Ok(())
    } else {
        Err("closed before its end message".into())
    }
}

/// Occurrences of `needle` in `haystack` that end past its first `seen` bytes (counted before).
fn count_new(haystack: &[u8], needle: &[u8], seen: usize) -> usize {
    haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(at, w)| at + needle.len() > seen && *w == needle)
        .count()
}
