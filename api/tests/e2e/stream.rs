//! The push stream: a client reading `GET /v1/games/{id}/stream` while the game is played
//! through another process, whose own process is killed under it, and which resumes on the
//! other process with `Last-Event-ID`.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::blocking::Client;
use roadie_engine::{Audience, Viewer};
use serde_json::{Value, json};

use crate::support::{Redis, Roadie};

/// One Server-Sent Events message.
#[derive(Clone, Debug)]
pub struct Message {
    pub id: Option<u64>,
    pub event: String,
    pub data: Value,
    /// The message's `retry:` field, if it had one.
    pub retry: Option<u64>,
}

/// What one connection of a stream gave.
pub enum Received {
    Message(Message),
    KeepAlive,
    /// The connection ended (the server closed it or died).
    Closed,
}

/// Opens a stream and sends what it receives to `out` until it closes. `Err` with the status
/// and body when the server refused it.
pub fn read_stream(
    base: &str,
    game: &str,
    token: Option<&str>,
    last_event_id: Option<u64>,
    out: &mpsc::Sender<Received>,
) -> Result<(), (u16, String)> {
    let client = Client::builder().timeout(None).build().expect("client");
    let mut request = client.get(format!("{base}/v1/games/{game}/stream"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(id) = last_event_id {
        request = request.header("Last-Event-ID", id.to_string());
    }
    let response = match request.send() {
        Ok(r) => r,
        Err(_) => {
            let _ = out.send(Received::Closed);
            return Ok(());
        }
    };
    let status = response.status().as_u16();
    if status != 200 {
        return Err((status, response.text().unwrap_or_default()));
    }
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/event-stream")
    );
    let mut message = (None, String::new(), String::new(), None);
    for line in BufReader::new(response).lines() {
        let Ok(line) = line else { break };
        if line.is_empty() {
            let (id, event, data, retry) = std::mem::take(&mut message);
            if !event.is_empty() {
                let data = serde_json::from_str(&data).expect("JSON data");
                let _ = out.send(Received::Message(Message {
                    id,
                    event,
                    data,
                    retry,
                }));
            }
        } else if line.starts_with(':') {
            let _ = out.send(Received::KeepAlive);
        } else if let Some(id) = line.strip_prefix("id: ") {
            message.0 = Some(id.parse().expect("a numeric id"));
        } else if let Some(event) = line.strip_prefix("event: ") {
            message.1 = event.to_owned();
        } else if let Some(data) = line.strip_prefix("data: ") {
            message.2.push_str(data);
        } else if let Some(retry) = line.strip_prefix("retry: ") {
            message.3 = Some(retry.parse().expect("a numeric retry"));
        } else {
            panic!("unexpected line {line:?}");
        }
    }
    let _ = out.send(Received::Closed);
    Ok(())
}

fn admits(event: &Value, viewer: Viewer) -> bool {
    let audience: Audience = serde_json::from_value(event["audience"].clone()).expect("audience");
    audience.admits(viewer, false)
}

#[test]
fn a_stream_resumes_on_another_process_after_a_kill_with_no_gap_and_no_duplicate() {
    let redis = Redis::start();
    let a = Roadie::start("stream_a", Some(&redis), &[]);
    let b = Roadie::start("stream_b", Some(&redis), &[]);
    let (slug, seats, seed) = ("shrewd-producer", 3, 2026);
    let created = a.create(slug, seats, Some(seed));
    let watcher = 0;
    let token = created.tokens[watcher].clone();
    let (sender, received) = mpsc::channel();
    let (base_a, base_b, id) = (a.base.clone(), b.base.clone(), created.id.clone());
    let reader = std::thread::spawn(move || {
        let mut messages: Vec<Message> = Vec::new();
        let mut connections = 0;
        let (inner_tx, inner_rx) = mpsc::channel();
        let mut last_id = None;
        loop {
            let base = if connections == 0 { &base_a } else { &base_b };
            connections += 1;
            assert!(connections <= 3, "the stream did not end");
            let (base, id, token, tx) = (base.clone(), id.clone(), token.clone(), inner_tx.clone());
            let connection = std::thread::spawn(move || read_stream(&base, &id, Some(&token), last_id, &tx));
            let mut ended = false;
            loop {
                match inner_rx
                    .recv_timeout(Duration::from_secs(60))
                    .expect("the stream went silent")
                {
                    Received::Message(m) => {
                        let _ = sender.send(m.event.clone());
                        if let Some(id) = m.id {
                            last_id = Some(id);
                        }
                        ended = m.event == "end";
                        messages.push(m);
                    }
                    Received::KeepAlive => {}
                    Received::Closed => break,
                }
            }
            connection
                .join()
                .expect("reader")
                .expect("the stream was refused");
            if ended {
                return (messages, connections);
            }
        }
    });

    let mut rng = StdRng::seed_from_u64(seed);
    let mut steps = 0;
    let mut final_first_seq = None;
    let mut version = 1;
    let mut killed = false;
    // The stream is open before the first post.
    received.recv_timeout(Duration::from_secs(30)).expect("opened");
    loop {
        assert!(steps < 5_000, "the game did not end");
        if steps == 12 {
            a.kill();
            killed = true;
        }
        let server = if killed || steps % 2 == 0 { &b } else { &a };
        let state = server.game(&created, None);
        let to_act: Vec<usize> = serde_json::from_value(state.json["to_act"].clone()).expect("to_act");
        if state.json["status"] == "finished" {
            break;
        }
        let seat = to_act[rng.random_range(0..to_act.len())];
        let actions = server.actions(&created, seat);
        let action = &actions[rng.random_range(0..actions.len())];
        let reply = server.act(&created, seat, action);
        assert_eq!(reply.status, 200, "{}", reply.body);
        version = reply.json["version"].as_u64().expect("version");
        if reply.json["status"] == "finished" {
            final_first_seq = reply.json["events"][0]["seq"].as_u64();
        }
        steps += 1;
    }
    assert!(killed, "the game ended before the kill");
    let (messages, connections) = reader.join().expect("the reader");
    assert_eq!(connections, 2, "one connection to each process");

    let log = b.events(&created, None);
    let final_first_seq = final_first_seq.expect("the last post's events");
    let expected: Vec<&Value> = log
        .iter()
        .filter(|e| {
            e["seq"].as_u64().expect("seq") >= final_first_seq
                || admits(e, Viewer::Seat(roadie_engine::Seat::new(watcher)))
        })
        .collect();
    let streamed: Vec<&Message> = messages.iter().filter(|m| m.event == "event").collect();
    assert_eq!(
        streamed.len(),
        expected.len(),
        "every event the seat may see, once"
    );
    for (message, event) in streamed.iter().zip(&expected) {
        assert_eq!(
            message.id,
            event["seq"].as_u64(),
            "in order, no gap, no duplicate"
        );
        assert_eq!(&message.data, *event);
    }
    assert!(
        streamed.iter().any(|m| !admits(&m.data, Viewer::Spectator)),
        "the seat's own secrets are in its stream"
    );
    let versions: Vec<u64> = messages
        .iter()
        .filter(|m| m.event == "state")
        .map(|m| m.data["version"].as_u64().expect("version"))
        .collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    let end = messages.last().expect("messages");
    assert_eq!(end.event, "end");
    assert_eq!(end.data["version"], version);
    assert_eq!(end.data["status"], "finished");
    assert_eq!(end.data["to_act"], json!([]));
}

#[test]
fn a_stream_is_refused_as_a_read_would_be_and_resumes_after_the_id_given() {
    let roadie = Roadie::start("stream_refusals", None, &[]);
    let created = roadie.create("shrewd-producer", 3, Some(5));
    let other = roadie.create("shrewd-producer", 3, Some(6));
    let path = format!("/v1/games/{}/stream", created.id);
    let malformed = roadie.request(
        roadie
            .http
            .get(roadie.url(&path))
            .header("Last-Event-ID", "seven"),
    );
    malformed.assert_problem(400, "malformed_header");
    roadie
        .get(&path, Some(&other.tokens[0]))
        .assert_problem(403, "wrong_game");
    roadie
        .get("/v1/games/nosuchgame/stream", None)
        .assert_problem(404, "game_not_found");

    // Spectator, resuming after the first event: the public events after it, then `state`.
    let (tx, rx) = mpsc::channel();
    let base = roadie.base.clone();
    let id = created.id.clone();
    std::thread::spawn(move || read_stream(&base, &id, None, Some(1), &tx));
    let mut seen = Vec::new();
    let started = Instant::now();
    while let Ok(Received::Message(m)) = rx.recv_timeout(Duration::from_secs(30)) {
        let done = m.event == "state";
        seen.push(m);
        if done {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30));
    }
    let log = roadie.events(&created, None);
    let public: Vec<u64> = log
        .iter()
        .filter_map(|e| e["seq"].as_u64())
        .filter(|&s| s > 1)
        .collect();
    let streamed: Vec<u64> = seen.iter().filter_map(|m| m.id).collect();
    assert_eq!(streamed, public);
    assert_eq!(seen.last().map(|m| m.data["version"].clone()), Some(json!(1)));
}

#[test]
fn on_sigterm_every_stream_is_told_to_reconnect_and_the_process_exits_promptly() {
    const STREAMS: usize = 50;
    let redis = Redis::start();
    let roadie = Roadie::start("stream_shutdown", Some(&redis), &[]);
    let games: Vec<_> = (0..5)
        .map(|seed| roadie.create("shrewd-producer", 3, Some(seed)))
        .collect();
    let streams: Vec<_> = (0..STREAMS)
        .map(|i| {
            let game = &games[i % games.len()];
            // Each game is watched by its three seats and by spectators.
            let token = game.tokens.get(i / games.len()).cloned();
            let (tx, rx) = mpsc::channel();
            let (base, id) = (roadie.base.clone(), game.id.clone());
            let reader = std::thread::spawn(move || read_stream(&base, &id, token.as_deref(), None, &tx));
            (rx, reader)
        })
        .collect();
    // Every stream is caught up (its first `state` came) and waits for a change.
    let mut received: Vec<Vec<Message>> = vec![Vec::new(); STREAMS];
    for (i, (rx, _)) in streams.iter().enumerate() {
        while !received[i].iter().any(|m| m.event == "state") {
            match rx
                .recv_timeout(Duration::from_secs(30))
                .expect("the stream opened")
            {
                Received::Message(m) => received[i].push(m),
                Received::KeepAlive => {}
                Received::Closed => panic!("stream {i} closed before it caught up"),
            }
        }
    }

    let took = roadie.stop();
    assert!(
        took < Duration::from_secs(3),
        "the process took {took:?} to exit with {STREAMS} streams open"
    );
    for (i, (rx, reader)) in streams.into_iter().enumerate() {
        loop {
            match rx.recv_timeout(Duration::from_secs(5)).expect("the stream ended") {
                Received::Message(m) => received[i].push(m),
                Received::KeepAlive => {}
                Received::Closed => break,
            }
        }
        reader
            .join()
            .expect("the reader")
            .expect("the stream was refused");
        let last = received[i].last().expect("messages");
        assert_eq!(last.event, "reconnect", "stream {i}: {:?}", received[i]);
        let retry = last.retry.expect("a reconnect carries retry:");
        assert!((1_000..=3_000).contains(&retry), "retry: {retry}");
        let game = &games[i % games.len()];
        let logged = log_length(&redis, &game.id);
        assert_eq!(last.data, json!({ "after": logged }), "stream {i}");
    }
}

/// How many events game `id`'s log holds in Redis.
fn log_length(redis: &Redis, id: &str) -> u64 {
    redis
        .cli(&["LLEN", &format!("roadie:{{{id}}}:events")])
        .parse()
        .expect("a length")
}
