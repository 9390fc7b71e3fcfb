//! A page of another origin, in headless Chromium, calls the real binary with
//! `ROADIE_CORS_ORIGINS` naming that origin: it resumes a seat's stream with `Last-Event-ID` and
//! gives a seat to a bot with `PUT`, both of which need a preflight the service must grant.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use serde_json::json;

use crate::browser::Driver;
use crate::support::Roadie;

/// A blank page served from its own loopback port: an origin other than the service's.
struct Elsewhere {
    origin: String,
    stop: Arc<AtomicBool>,
    server: Option<JoinHandle<()>>,
}

impl Elsewhere {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let origin = format!("http://{}", listener.local_addr().expect("address"));
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let server = std::thread::spawn(move || {
            for connection in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    return;
                }
                if let Ok(connection) = connection {
                    answer(connection);
                }
            }
        });
        Elsewhere {
            origin,
            stop,
            server: Some(server),
        }
    }
}

/// Reads one request's head and answers it with the blank page.
fn answer(mut connection: TcpStream) {
    let mut reader = BufReader::new(&connection);
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
        line.clear();
    }
    let page = "<!doctype html><title>Elsewhere</title><p>A page of another origin</p>";
    let _ = write!(
        connection,
        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
        page.len()
    );
}

impl Drop for Elsewhere {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.origin.trim_start_matches("http://"));
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}

/// Gives seat 1 to a greedy bot with the host token, then reads seat 0's stream from
/// `Last-Event-ID` until its `state` message; answers both statuses and the stream's text.
const SCRIPT: &str = r#"
const [base, id, seatToken, hostToken, lastEventId, done] = arguments;
const replace = async () => {
  const put = await fetch(`${base}/v1/games/${id}/seats/1`, {
    method: "PUT",
    headers: {"Authorization": `Bearer ${hostToken}`, "Content-Type": "application/json"},
    body: JSON.stringify({bot: "greedy"}),
  });
  return {status: put.status, body: await put.json()};
};
const resume = async () => {
  const abort = new AbortController();
  const stream = await fetch(`${base}/v1/games/${id}/stream`, {
    headers: {"Authorization": `Bearer ${seatToken}`, "Last-Event-ID": lastEventId},
    signal: abort.signal,
  });
  let text = "";
  const reader = stream.body.getReader();
  const decoder = new TextDecoder();
  while (!text.includes("event: state\n")) {
    const {value, done: ended} = await reader.read();
    if (ended) break;
    text += decoder.decode(value, {stream: true});
  }
  abort.abort();
  return {status: stream.status, text};
};
const refused = failure => ({refused: String(failure)});
(async () => {
  const put = await replace().catch(refused);
  const stream = await resume().catch(refused);
  return {put, stream};
})().then(done);
"#;

#[test]
fn a_page_of_another_origin_resumes_a_stream_and_replaces_a_seat() {
    let page = Elsewhere::start();
    let roadie = Roadie::start(
        "cors_browser",
        None,
        &[("ROADIE_CORS_ORIGINS", page.origin.as_str())],
    );
    let game = roadie.create("shrewd-producer", 3, Some(5));
    let last = roadie
        .events(&game, Some(0))
        .iter()
        .filter_map(|e| e["seq"].as_u64())
        .max()
        .expect("the game's first events");

    let driver = Driver::start();
    let browser = driver.browser("cors", (800, 600));
    browser.open(&format!("{}/", page.origin));
    let outcome = browser.run_async(
        SCRIPT,
        vec![
            json!(roadie.base),
            json!(game.id),
            json!(game.tokens[0]),
            json!(game.host_token),
            json!(last.to_string()),
        ],
    );
    assert_eq!(outcome["put"]["status"], 200, "PUT from the page: {outcome}");
    assert_eq!(outcome["put"]["body"]["seat"]["level"], "greedy", "{outcome}");
    assert_eq!(
        outcome["stream"]["status"], 200,
        "the stream from the page: {}",
        outcome["stream"]
    );
    let text = outcome["stream"]["text"].as_str().unwrap_or_default();
    let ids: Vec<u64> = text
        .lines()
        .filter_map(|line| line.strip_prefix("id: "))
        .map(|id| id.parse().expect("a numeric id"))
        .collect();
    let after: Vec<u64> = roadie
        .events(&game, Some(0))
        .iter()
        .filter_map(|e| e["seq"].as_u64())
        .filter(|seq| *seq > last)
        .collect();
    assert_eq!(
        ids, after,
        "the stream resumes after Last-Event-ID {last} with what seat 0 sees:\n{text}"
    );
    assert!(
        text.contains(r#""type":"seat_replaced""#),
        "the replacement reached the stream:\n{text}"
    );
    let seat = &roadie.game(&game, None).json["occupants"][1];
    assert_eq!(seat["occupant"], "bot", "{seat}");
    assert_eq!(seat["level"], "greedy", "{seat}");
}
