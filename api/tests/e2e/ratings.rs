//! Ratings over real HTTP on a real Redis: games matched among an app's players are rated once
//! each, by two processes one of which is SIGKILLed mid-run, and the leaderboard equals a
//! recomputation from the games' signed records; rated creations, forfeits, anchors, aborts,
//! the reconciler's repair of a lost rating entry, and every wrong input's problem.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use rand::seq::IndexedRandom;
use roadie_api::table::rating::{self, RatedSeat, RatingChange, Standing};
use roadie_engine::{Outcome, Seat};
use serde_json::{Value, json};

use crate::apps::{SigningKey, claims, new_key, toml_inline};
use crate::support::{Redis, Reply, Roadie, due_key, scratch, send};

/// The ruleset the matched games play.
const RULESET: &str = "shrewd-producer";

/// An app with players, served by some processes on one Redis.
struct Served {
    redis: Redis,
    servers: Vec<Roadie>,
    /// The app's API key.
    key: String,
    /// Another app's API key.
    stranger: String,
    /// Player tokens, by player id.
    players: Vec<(String, String)>,
    /// A token of a player of the other app.
    stranger_player: String,
}

fn serve(name: &str, processes: usize, players: usize, extra: &[(&str, &str)]) -> Served {
    let dir = scratch(&format!("{name}-keys"));
    let signing = SigningKey::ed25519(&dir, "acme-1");
    let other = SigningKey::ed25519(&dir, "bolt-1");
    let (key, hash) = new_key("acme");
    let (stranger, stranger_hash) = new_key("bolt");
    let apps = dir.join("apps.toml");
    std::fs::write(
        &apps,
        format!(
            "[[apps]]\nid = \"acme\"\nname = \"Acme\"\napi_keys = [{hash}]\nalgorithms = [\"EdDSA\"]\n\
             jwks = {{ keys = [{}] }}\n[apps.limits]\nlive_games = 10000\ncreations_per_second = 1000\n\
             creation_burst = 1000\n\n\
             [[apps]]\nid = \"bolt\"\nname = \"Bolt\"\napi_keys = [{stranger_hash}]\nalgorithms = [\"EdDSA\"]\n\
             jwks = {{ keys = [{}] }}\n",
            toml_inline(&signing.jwk),
            toml_inline(&other.jwk),
        ),
    )
    .expect("apps file");
    let redis = Redis::start();
    let apps = apps.to_str().expect("path").to_owned();
    let mut env: Vec<(&str, &str)> = vec![("ROADIE_APPS", &apps), ("ROADIE_RATING_SWEEP_MS", "100")];
    env.extend_from_slice(extra);
    let servers = (0..processes)
        .map(|i| Roadie::start(&format!("{name}-{i}"), Some(&redis), &env))
        .collect();
    let players = (0..players)
        .map(|i| {
            let id = format!("p{i:02}");
            let token = signing.sign(&claims("acme", &id));
            (id, token)
        })
        .collect();
    Served {
        redis,
        servers,
        key,
        stranger,
        players,
        stranger_player: other.sign(&claims("bolt", "p00")),
    }
}

/// A request sent to the first process still up, from `prefer` on: `None` only when none
/// answers for a while.
fn call(
    servers: &[Roadie],
    down: &AtomicBool,
    prefer: usize,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&Value>,
) -> Reply {
    let mut prefer = prefer;
    for _ in 0..100 {
        let server = if down.load(Ordering::SeqCst) {
            &servers[0]
        } else {
            &servers[prefer % servers.len()]
        };
        let mut builder = server
            .http
            .request(method.parse().expect("method"), server.url(path))
            .bearer_auth(token);
        if let Some(body) = body {
            builder = builder.json(body);
        }
        match builder.send() {
            Ok(response) => {
                let status = response.status().as_u16();
                let headers = response.headers().clone();
                let text = response.text().unwrap_or_default();
                let json = serde_json::from_str(&text).unwrap_or(Value::Null);
                return Reply {
                    status,
                    headers,
                    body: text,
                    json,
                };
            }
            Err(_) => {
                prefer = 0;
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
    panic!("no process answered {method} {path}");
}

/// How long a player waits for a game that does not move before leaving it.
const STILL: Duration = Duration::from_secs(20);

/// What the players saw of the games they were matched in.
#[derive(Default)]
struct Seen {
    /// (game, seat, player) of every matched ticket.
    seats: Vec<(String, u64, String)>,
}

/// One player: tickets, then its seat of each game it is matched in, until `started` games
/// were matched; now and then it resigns its seat.
#[allow(clippy::too_many_arguments)]
fn play_as(
    servers: &[Roadie],
    down: &AtomicBool,
    me: usize,
    id: &str,
    token: &str,
    started: &AtomicUsize,
    target: usize,
    seen: &Mutex<Seen>,
    until: Instant,
) {
    let mut rng = rand::rng();
    for round in 0.. {
        if started.load(Ordering::SeqCst) >= target || Instant::now() > until {
            return;
        }
        let prefer = me + round;
        let opened = call(
            servers,
            down,
            prefer,
            "POST",
            "/v1/tickets",
            token,
            Some(&json!({"ruleset": RULESET, "seats": 3, "name": id})),
        );
        assert_eq!(opened.status, 201, "{}", opened.body);
        let ticket = opened.json["id"].as_str().expect("ticket").to_owned();
        let ticket_token = opened.json["token"].as_str().expect("ticket token").to_owned();
        let matched = loop {
            let info = call(
                servers,
                down,
                prefer,
                "GET",
                &format!("/v1/tickets/{ticket}?wait=2"),
                &ticket_token,
                None,
            );
            assert_eq!(info.status, 200, "{}", info.body);
            if info.json["status"] == "matched" {
                break Some(info.json);
            }
            assert_eq!(info.json["status"], "waiting", "{}", info.body);
            if started.load(Ordering::SeqCst) >= target || Instant::now() > until {
                let cancelled = call(
                    servers,
                    down,
                    prefer,
                    "DELETE",
                    &format!("/v1/tickets/{ticket}"),
                    &ticket_token,
                    None,
                );
                if cancelled.status == 204 {
                    break None;
                }
                cancelled.assert_problem(409, "ticket_matched");
            }
        };
        let Some(matched) = matched else {
            return;
        };
        let game = matched["game"].as_str().expect("game").to_owned();
        let seat = matched["seat"].as_u64().expect("seat");
        let seat_token = matched["seat_token"].as_str().expect("seat token").to_owned();
        if seat == 0 {
            started.fetch_add(1, Ordering::SeqCst);
        }
        seen.lock()
            .expect("seen")
            .seats
            .push((game.clone(), seat, id.to_owned()));
        // Seat 2 resigns after its first decision in a game of three.
        let resigns = seat == 2 && rng.random_range(0..3) == 0;
        let mut decisions = 0;
        // A game whose other seat's player never heard of its ticket stands still: this player
        // leaves it to be finished by the app's players once the run is over.
        let mut last_move = (String::new(), Instant::now());
        loop {
            let state = call(
                servers,
                down,
                prefer,
                "GET",
                &format!("/v1/games/{game}"),
                &seat_token,
                None,
            );
            assert_eq!(state.status, 200, "{}", state.body);
            if state.json["status"] != "active" {
                break;
            }
            let mine = state.json["to_act"]
                .as_array()
                .is_some_and(|to_act| to_act.contains(&json!(seat)));
            if !mine {
                let revision = state.json["revision"].as_str().expect("revision");
                if revision != last_move.0 {
                    last_move = (revision.to_owned(), Instant::now());
                } else if last_move.1.elapsed() > STILL {
                    break;
                }
                let server = if down.load(Ordering::SeqCst) {
                    &servers[0]
                } else {
                    &servers[prefer % servers.len()]
                };
                let _ = server
                    .http
                    .get(server.url(&format!("/v1/games/{game}?wait=2")))
                    .bearer_auth(&seat_token)
                    .header("If-None-Match", format!("\"{revision}\""))
                    .send();
                continue;
            }
            if resigns && decisions == 1 {
                let resigned = call(
                    servers,
                    down,
                    prefer,
                    "POST",
                    &format!("/v1/games/{game}/seats/{seat}/resign"),
                    &seat_token,
                    Some(&json!({})),
                );
                assert!(
                    resigned.status == 200 || resigned.status == 409,
                    "{}",
                    resigned.body
                );
                break;
            }
            let actions = call(
                servers,
                down,
                prefer,
                "GET",
                &format!("/v1/games/{game}/actions"),
                &seat_token,
                None,
            );
            let Some(action) = actions.json["actions"]
                .as_array()
                .and_then(|a| a.choose(&mut rng))
                .cloned()
            else {
                continue;
            };
            let posted = call(
                servers,
                down,
                prefer,
                "POST",
                &format!("/v1/games/{game}/actions"),
                &seat_token,
                Some(&json!({ "action": action })),
            );
            // A post the other process may have written before it died is read again above.
            assert!([200, 409, 422, 503].contains(&posted.status), "{}", posted.body);
            decisions += 1;
        }
    }
}

/// The game as the app sees it once its ratings are in (or the deadline passed).
fn rated(server: &Roadie, key: &str, game: &str, deadline: Instant) -> Value {
    loop {
        let state = server.get(&format!("/v1/games/{game}"), Some(key));
        assert_eq!(state.status, 200, "{}", state.body);
        if state.json["ratings"].is_array() || Instant::now() > deadline {
            return state.json;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The seats a record's own events say forfeited: resigned, given to a bot or another player, or
/// out of time.
fn forfeits(record: &Value) -> Vec<Seat> {
    let mut seats = Vec::new();
    for step in record["steps"].as_array().expect("steps") {
        let event = &step["event"];
        let forfeit = matches!(
            event["type"].as_str(),
            Some("seat_resigned" | "seat_replaced" | "seat_handed" | "clock_expired")
        );
        if forfeit && let Some(seat) = event["seat"].as_u64() {
            let seat = Seat::new(seat as usize);
            if !seats.contains(&seat) {
                seats.push(seat);
            }
        }
    }
    seats
}

/// The changes a record's game makes, computed again from its outcome, its forfeits and the
/// ratings its players came with.
fn recomputed(record: &Value, ratings: &[RatingChange]) -> Vec<RatingChange> {
    let outcome: Outcome = serde_json::from_value(record["outcome"].clone()).expect("outcome");
    let seats: Vec<RatedSeat> = ratings
        .iter()
        .map(|change| match (&change.player, change.bot) {
            (Some(player), _) => RatedSeat::Player {
                player: player.clone(),
                name: player.clone(),
            },
            (None, Some(level)) => RatedSeat::Bot { level },
            (None, None) => panic!("a seat rated as nobody"),
        })
        .collect();
    let standings: Vec<Standing> = ratings
        .iter()
        .filter(|change| change.player.is_some())
        .map(|change| Standing {
            skill: change.before.skill(),
            games: change.before.games,
            wins: 0,
        })
        .collect();
    let account = rating::Rated {
        seats,
        forfeits: forfeits(record),
        changes: None,
    };
    rating::changes(
        &account,
        record["ruleset"].as_str().expect("ruleset"),
        &outcome,
        &standings,
    )
    .expect("changes")
}

/// Every row of the leaderboard, page by page.
fn leaderboard(server: &Roadie, key: &str, min_games: u64) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/rulesets/{RULESET}/leaderboard?limit=7&min_games={min_games}");
        if let Some(cursor) = &cursor {
            path.push_str(&format!("&cursor={cursor}"));
        }
        let page = server.get(&path, Some(key));
        assert_eq!(page.status, 200, "{}", page.body);
        rows.extend(page.json["rows"].as_array().cloned().unwrap_or_default());
        match page.json["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return rows,
        }
    }
}

#[test]
fn matched_games_among_forty_players_are_rated_once_each_and_the_leaderboard_is_their_records_recomputed() {
    let served = serve(
        "ratings-matched",
        2,
        40,
        &[
            ("ROADIE_MATCH_WINDOW", "50,3000,3"),
            ("ROADIE_RATING_LEASE_MS", "2000"),
            ("ROADIE_TICKET_LEASE_MS", "2000"),
        ],
    );
    let target = 200;
    let started = AtomicUsize::new(0);
    let down = AtomicBool::new(false);
    let seen = Mutex::new(Seen::default());
    let began = Instant::now();
    // Bounds the run: a player stops opening tickets after it, and too few games fail below.
    let until = began + Duration::from_secs(900);
    std::thread::scope(|scope| {
        for (me, (id, token)) in served.players.iter().enumerate() {
            let (servers, down, started, seen) = (&served.servers, &down, &started, &seen);
            scope.spawn(move || play_as(servers, down, me, id, token, started, target, seen, until));
        }
        // One of the two processes dies mid-run with whatever it held: posts, claims, ratings.
        while started.load(Ordering::SeqCst) < target / 3 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        down.store(true, Ordering::SeqCst);
        served.servers[1].kill();
    });
    let server = &served.servers[0];
    // A ticket whose opening was answered by the process as it died, and opened again, was
    // matched all the same: its player never heard of it. The app's players finish such games
    // by their own tokens.
    let tokens: HashMap<&str, &str> = served
        .players
        .iter()
        .map(|(id, token)| (id.as_str(), token.as_str()))
        .collect();
    let orphans = app_games(server, &served.key, "active");
    for game in &orphans {
        finish_by_players(server, game, &tokens);
    }
    let games = app_games(server, &served.key, "finished");
    let seen = seen.into_inner().expect("seen");
    let matched: HashSet<&str> = seen.seats.iter().map(|(game, _, _)| game.as_str()).collect();
    assert!(matched.len() >= target, "{} games matched", matched.len());
    assert!(matched.iter().all(|game| games.contains(*game)));
    eprintln!(
        "{} games among 40 players in {:?} ({} finished by the app's players)",
        games.len(),
        began.elapsed(),
        orphans.len()
    );

    let deadline = Instant::now() + Duration::from_secs(60);
    let mut changes_by_player: HashMap<String, Vec<RatingChange>> = HashMap::new();
    let mut seated_in: HashMap<String, usize> = HashMap::new();
    for (_, _, player) in &seen.seats {
        *seated_in.entry(player.clone()).or_default() += 1;
    }
    let mut forfeited = 0;
    let mut verified = false;
    for game in &games {
        let state = rated(server, &served.key, game, deadline);
        assert_eq!(state["status"], "finished", "{state}");
        assert_eq!(state["rated"], true, "{state}");
        let ratings: Vec<RatingChange> = serde_json::from_value(state["ratings"].clone())
            .unwrap_or_else(|_| panic!("{game} was not rated: {state}"));
        // Rated once: one `ratings_changed` in the log, and the record says the same.
        let events = server.get(&format!("/v1/games/{game}/events?limit=5000"), Some(&served.key));
        assert_eq!(events.status, 200, "{}", events.body);
        let announced = events.json["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["body"]["type"] == "ratings_changed")
            .count();
        assert_eq!(announced, 1, "{game} announced its ratings {announced} times");
        let record = server.get(&format!("/v1/games/{game}/record"), Some(&served.key));
        assert_eq!(record.status, 200, "{}", record.body);
        assert_eq!(record.json["ratings"], state["ratings"], "{game}");
        if !verified {
            // The record verifies, its ratings those its `ratings_changed` step announced; a
            // change to them is found before the signature is checked.
            let verdict = server.post("/v1/records/verify", None, &record.json);
            assert_eq!(verdict.json["ok"], true, "{}", verdict.body);
            let mut forged = record.json.clone();
            forged["ratings"][0]["after"]["rating"] = json!(9_999);
            let verdict = server.post("/v1/records/verify", None, &forged);
            assert_eq!(verdict.json["failed"], "ratings", "{}", verdict.body);
            verified = true;
        }
        assert_eq!(
            recomputed(&record.json, &ratings),
            ratings,
            "{game}: the change does not recompute"
        );
        forfeited += forfeits(&record.json).len();
        for change in ratings {
            if let Some(player) = change.player.clone() {
                changes_by_player.entry(player).or_default().push(change);
            }
        }
    }
    assert!(forfeited > 0, "no seat resigned: the forfeits went untested");

    // Each player's games chain: each starts where the one before left it, from a new
    // player's rating, and the last is where the leaderboard shows it.
    let mut expected: BTreeMap<String, (i64, u32, u32)> = BTreeMap::new();
    for (player, mut changes) in changes_by_player {
        changes.sort_by_key(|change| change.before.games);
        // Once per game: its counts of games run 0, 1, 2... through its games, and it is in
        // every game it was matched in.
        let counts: Vec<u32> = changes.iter().map(|change| change.before.games).collect();
        assert_eq!(counts, (0..changes.len() as u32).collect::<Vec<_>>(), "{player}");
        assert!(
            changes.len() >= seated_in.get(&player).copied().unwrap_or(0),
            "{player}"
        );
        assert_eq!(changes[0].before.skill(), rating::START, "{player}");
        for pair in changes.windows(2) {
            assert_eq!(pair[0].after, pair[1].before, "{player}'s ratings do not chain");
        }
        let last = changes.last().expect("a game");
        let wins = changes.iter().filter(|c| c.place == 1).count() as u32;
        expected.insert(player, (last.after.rating, last.after.games, wins));
    }
    let rows = leaderboard(server, &served.key, 0);
    assert_eq!(rows.len(), expected.len());
    let mut ranked: Vec<(&String, &(i64, u32, u32))> = expected.iter().collect();
    ranked.sort_by(|a, b| (b.1.0, b.0).cmp(&(a.1.0, a.0)));
    for (i, (row, (player, (rating, games, wins)))) in rows.iter().zip(ranked).enumerate() {
        assert_eq!(row["rank"], i + 1);
        assert_eq!(row["player"], json!(player));
        assert_eq!(row["name"], json!(player));
        assert_eq!(
            (&row["rating"], &row["games"], &row["wins"]),
            (&json!(rating), &json!(games), &json!(wins)),
            "{row}"
        );
    }
    // A minimum of games filters the board, ranks counting only the players it shows.
    let most = expected
        .values()
        .map(|(_, games, _)| *games)
        .max()
        .expect("players");
    let keen = leaderboard(server, &served.key, u64::from(most));
    assert!(!keen.is_empty() && keen.len() < rows.len());
    assert_eq!(keen[0]["rank"], 1);
    assert!(keen.iter().all(|row| row["games"] == most));
    // A player's profile is its leaderboard row and its last games, with their records.
    let (player, token) = &served.players[0];
    let profile = server.get(&format!("/v1/players/{player}"), Some(&served.key));
    assert_eq!(profile.status, 200, "{}", profile.body);
    let (rating, games, wins) = expected[player];
    assert_eq!(profile.json["games"], games);
    assert_eq!(profile.json["wins"], wins);
    assert_eq!(profile.json["ratings"][0]["rating"], rating);
    let recent = profile.json["recent"].as_array().expect("recent");
    assert_eq!(recent.len(), (games as usize).min(10));
    let record = server.get(
        recent[0]["record"].as_str().expect("record link"),
        Some(&served.key),
    );
    assert_eq!(record.status, 200, "{}", record.body);
    let me = server.get("/v1/me", Some(token));
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.json, profile.json);
    drop(served.redis);
}

/// The ids of the app's games in `status`, every page.
fn app_games(server: &Roadie, key: &str, status: &str) -> HashSet<String> {
    let mut games = HashSet::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/games?status={status}&limit=100");
        if let Some(cursor) = &cursor {
            path.push_str(&format!("&cursor={cursor}"));
        }
        let page = server.get(&path, Some(key));
        assert_eq!(page.status, 200, "{}", page.body);
        for game in page.json["games"].as_array().expect("games") {
            games.insert(game["id"].as_str().expect("id").to_owned());
        }
        match page.json["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return games,
        }
    }
}

/// Plays game `id` to its end, each seat by its player's own token.
fn finish_by_players(server: &Roadie, id: &str, tokens: &HashMap<&str, &str>) {
    let any = *tokens.values().next().expect("a player");
    for _ in 0..5_000 {
        let state = server.get(&format!("/v1/games/{id}"), Some(any));
        assert_eq!(state.status, 200, "{}", state.body);
        if state.json["status"] != "active" {
            return;
        }
        let seat = state.json["to_act"][0].as_u64().expect("a seat to act");
        let player = state.json["occupants"][seat as usize]["player"].as_str();
        let Some(token) = player.and_then(|p| tokens.get(p)) else {
            // A bot's seat: it plays by itself.
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let actions = server.get(&format!("/v1/games/{id}/actions?seat={seat}"), Some(token));
        assert_eq!(actions.status, 200, "{}", actions.body);
        let action = actions.json["actions"][0].clone();
        let posted = server.post(
            &format!("/v1/games/{id}/actions?seat={seat}"),
            Some(token),
            &json!({ "action": action }),
        );
        assert!(posted.status == 200 || posted.status == 409, "{}", posted.body);
    }
    panic!("game {id} did not end");
}

/// Creates a game with `seats` for `key`'s app.
fn create(server: &Roadie, key: &str, seats: Value, rated: bool) -> Reply {
    server.post(
        "/v1/games",
        Some(key),
        &json!({"ruleset": "rock-the-world", "seats": seats, "rated": rated}),
    )
}

/// Plays game `id` to its end, each seat by its token, with the first legal action.
fn play_out(server: &Roadie, key: &str, game: &Value) {
    let id = game["id"].as_str().expect("id");
    let tokens: HashMap<u64, String> = game["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| Some((s["seat"].as_u64()?, s["token"].as_str()?.to_owned())))
        .collect();
    for _ in 0..5_000 {
        let state = server.get(&format!("/v1/games/{id}"), Some(key));
        assert_eq!(state.status, 200, "{}", state.body);
        if state.json["status"] != "active" {
            return;
        }
        let seat = state.json["to_act"][0].as_u64().expect("a seat to act");
        let actions = server.get(&format!("/v1/games/{id}/actions"), Some(&tokens[&seat]));
        let action = actions.json["actions"][0].clone();
        let posted = server.post(
            &format!("/v1/games/{id}/actions"),
            Some(&tokens[&seat]),
            &json!({ "action": action }),
        );
        assert_eq!(posted.status, 200, "{}", posted.body);
    }
    panic!("game {id} did not end");
}

#[test]
fn a_rated_game_seats_an_apps_players_and_anchoring_bots_and_wrong_asks_are_problems() {
    // The rater sweeps seldom, so that a rating entry deleted as its game ends is gone before
    // the rater would have claimed it.
    let served = serve(
        "ratings-asks",
        1,
        3,
        &[
            ("ROADIE_REPAIR_EVERY_MS", "300"),
            ("ROADIE_RATING_SWEEP_MS", "2000"),
            // Tickets match only equal ratings at once, ±1000 after 4 s.
            ("ROADIE_MATCH_WINDOW", "0,1000,4"),
        ],
    );
    let server = &served.servers[0];
    let key = &served.key;
    // Rated creations: an app's players (each once) and bots only, never a fork.
    for (seats, why) in [
        (json!([{"player": "p00"}, {"open": true}]), "an open seat"),
        (json!([{"player": "p00"}, {"name": "Ann"}]), "a named seat"),
        (json!([{"player": "p00"}, {"player": "p00"}]), "a player twice"),
        (json!([{"bot": "greedy"}, {"bot": "random"}]), "no player"),
        (json!(2), "seats unnamed"),
    ] {
        let reply = create(server, key, seats, true);
        assert_eq!(reply.status, 422, "{why}: {}", reply.body);
        reply.assert_problem(422, "not_ratable");
    }
    let fork = server.post(
        "/v1/games",
        Some(key),
        &json!({"ruleset": "rock-the-world", "seats": [{"player": "p00"}, {"player": "p01"}], "rated": true, "from": {"game": "0123456789abcdef01234567"}}),
    );
    fork.assert_problem(422, "not_ratable");
    // Reading ratings: the app's credential, a ruleset it has, a cursor it was given.
    let board = "/v1/rulesets/rock-the-world/leaderboard";
    server.get(board, None).assert_problem(401, "app_required");
    server
        .get("/v1/rulesets/chess/leaderboard", Some(key))
        .assert_problem(404, "ruleset_not_found");
    for bad in [
        "cursor=x",
        "cursor=3.9",
        "cursor=-1.0",
        "limit=0",
        "limit=101",
        "min_games=-1",
    ] {
        let reply = server.get(&format!("{board}?{bad}"), Some(key));
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
    }
    server
        .get("/v1/players/p00", Some(key))
        .assert_problem(404, "player_not_found");
    server
        .get(&format!("/v1/players/{}", "x".repeat(129)), Some(key))
        .assert_problem(404, "player_not_found");
    server
        .get("/v1/me", Some(key))
        .assert_problem(401, "app_required");
    let fresh = server.get("/v1/me", Some(&served.players[0].1));
    assert_eq!(
        (fresh.status, &fresh.json["games"]),
        (200, &json!(0)),
        "{}",
        fresh.body
    );

    // A rated game of two players and a bot anchor, played to its end.
    let created = create(
        server,
        key,
        json!([{"player": "p00", "name": "Ann"}, {"bot": "greedy"}, {"player": "p01", "name": "Bob"}]),
        true,
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json["id"].as_str().expect("id").to_owned();
    play_out(server, key, &created.json);
    let state = rated(server, key, &id, Instant::now() + Duration::from_secs(20));
    let ratings: Vec<RatingChange> =
        serde_json::from_value(state["ratings"].clone()).unwrap_or_else(|_| panic!("not rated: {state}"));
    assert_eq!(ratings.len(), 3);
    assert_eq!(ratings[1].before, ratings[1].after, "an anchor does not move");
    assert_eq!(ratings[1].bot, Some(roadie_engine::BotLevel::Greedy));
    for change in [&ratings[0], &ratings[2]] {
        assert_eq!((change.before.games, change.after.games), (0, 1));
        assert_ne!(change.before.skill(), change.after.skill());
    }
    // Another app sees neither the game nor the players, and learns nothing from the answer.
    server
        .get(&format!("/v1/games/{id}"), Some(&served.stranger))
        .assert_problem(404, "game_not_found");
    server
        .get("/v1/players/p00", Some(&served.stranger))
        .assert_problem(404, "player_not_found");
    server
        .get("/v1/players/p00", Some(&served.stranger_player))
        .assert_problem(404, "player_not_found");
    let theirs = server.get(board, Some(&served.stranger));
    assert_eq!(theirs.json["rows"], json!([]), "{}", theirs.body);
    let ours = server.get(board, Some(key));
    assert_eq!(
        ours.json["rows"].as_array().map(Vec::len),
        Some(2),
        "{}",
        ours.body
    );

    // Their tickets wait for each other until their windows span the gap in their ratings.
    let gap = (ratings[0].after.rating - ratings[2].after.rating).unsigned_abs();
    assert!(gap > 100, "the game left its players {gap} apart");
    let opened_at = Instant::now();
    let tickets: Vec<(String, String)> = [0, 1]
        .iter()
        .map(|&i| {
            let opened = server.post(
                "/v1/tickets",
                Some(&served.players[i].1),
                &json!({"ruleset": "rock-the-world", "seats": 2, "name": served.players[i].0}),
            );
            assert_eq!(opened.status, 201, "{}", opened.body);
            (
                opened.json["id"].as_str().expect("id").to_owned(),
                opened.json["token"].as_str().expect("token").to_owned(),
            )
        })
        .collect();
    let (id, token) = &tickets[0];
    let matched_after = loop {
        let info = send(
            server
                .http
                .get(server.url(&format!("/v1/tickets/{id}?wait=1")))
                .bearer_auth(token),
        );
        assert_eq!(info.status, 200, "{}", info.body);
        if info.json["status"] == "matched" {
            break opened_at.elapsed();
        }
        assert!(
            opened_at.elapsed() < Duration::from_secs(15),
            "never matched: {}",
            info.body
        );
    };
    let due = Duration::from_millis(gap * 4);
    assert!(
        matched_after + Duration::from_millis(300) >= due && matched_after <= due + Duration::from_secs(2),
        "{gap} points apart matched after {matched_after:?}, not about {due:?}"
    );

    // An aborted rated game rates nobody.
    let aborted = create(server, key, json!([{"player": "p00"}, {"player": "p02"}]), true);
    let aborted_id = aborted.json["id"].as_str().expect("id");
    let reply = server.post(&format!("/v1/games/{aborted_id}/abort"), Some(key), &json!({}));
    assert_eq!(reply.status, 200, "{}", reply.body);
    std::thread::sleep(Duration::from_millis(500));
    let state = server.get(&format!("/v1/games/{aborted_id}"), Some(key));
    assert!(state.json["ratings"].is_null(), "{}", state.body);
    server
        .get("/v1/players/p02", Some(key))
        .assert_problem(404, "player_not_found");

    // A rating entry lost just as a game ends is put back by the reconciler.
    let created = create(server, key, json!([{"player": "p01"}, {"player": "p02"}]), true);
    let lost = created.json["id"].as_str().expect("id").to_owned();
    let due = due_key("ratings", ":due", &lost);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Deletes the game's rating entry whenever it appears, until told to stop.
        scope.spawn(|| {
            while !stop.load(Ordering::SeqCst) {
                served.redis.cli(&["ZREM", &due, &lost]);
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        play_out(server, key, &created.json);
        std::thread::sleep(Duration::from_millis(400));
        stop.store(true, Ordering::SeqCst);
    });
    let state = rated(server, key, &lost, Instant::now() + Duration::from_secs(10));
    assert!(state["ratings"].is_array(), "never rated: {state}");
    let metrics = send(server.http.get(server.url("/metrics")));
    assert!(
        metrics
            .body
            .lines()
            .any(|l| l.starts_with("roadie_repairs_total{kind=\"rating\"}")),
        "{}",
        metrics.body
    );
}
