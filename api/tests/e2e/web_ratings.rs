//! Ratings at the web table, in headless Chromium: a server with an app whose players play rated
//! games through the API, while one of them watches at the table, by her own player token pasted
//! in the lobby. The finished game shows "rating…" while its ratings are being written, then
//! each seat's rating before and after and the change, exactly as the game's `ratings` say; the
//! lobby shows the player's own ratings (`GET /v1/me`) and the ruleset's leaderboard, page by
//! page, row for row as `GET /v1/rulesets/{ruleset}/leaderboard` answers it; and a game of the
//! app she did not play in is watched with her token as a spectator, its ratings shown alike.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::apps::{SigningKey, claims, new_key, toml_inline};
use crate::browser::{Browser, Driver};
use crate::support::{Redis, Reply, Roadie, scratch, send};

/// The browser window's size, in pixels.
const WINDOW: (u32, u32) = (1280, 1200);

/// Most actions the players of one game may post before the test calls it stuck.
const MAX_POSTS: usize = 5000;

/// The ruleset the games are played in.
const RULESET: &str = "shrewd-producer";

/// An app's player-signing key (Ed25519) and the API key of the app.
struct App {
    signing: SigningKey,
    api_key: String,
    file: std::path::PathBuf,
}

impl App {
    /// The app `acme`: a signing key made with openssl, an API key made by `roadie apps new-key`,
    /// and the apps file naming both (the key by its hash, the signing key by its public half).
    fn new(dir: &Path) -> Self {
        let signing = SigningKey::ed25519(dir, "k1");
        let (api_key, hash) = new_key("acme");
        let file = dir.join("apps.toml");
        std::fs::write(
            &file,
            format!(
                "[[apps]]\nid = \"acme\"\nname = \"Acme Games\"\napi_keys = [{hash}]\n\
                 algorithms = [\"EdDSA\"]\njwks = {{ keys = [{}] }}\n",
                toml_inline(&signing.jwk)
            ),
        )
        .expect("apps file");
        Self {
            signing,
            api_key,
            file,
        }
    }

    /// The player token the app gives player `id` called `name`.
    fn player(&self, id: &str, name: &str) -> String {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock")
            .as_secs();
        let mut claims = claims("acme", id);
        claims["name"] = json!(name);
        claims["exp"] = json!(now + 3600);
        self.signing.sign(&claims)
    }

    /// A server of this app on `redis`, its rater looking for finished games every `sweep_ms`.
    fn server(&self, name: &str, redis: &Redis, sweep_ms: u64) -> Roadie {
        Roadie::start(
            name,
            Some(redis),
            &[
                ("ROADIE_APPS", self.file.to_str().expect("path")),
                ("ROADIE_RATING_SWEEP_MS", &sweep_ms.to_string()),
            ],
        )
    }
}

fn call(roadie: &Roadie, method: &str, path: &str, token: &str, body: Option<&Value>) -> Reply {
    let mut builder = roadie
        .http
        .request(method.parse().expect("method"), roadie.url(path))
        .bearer_auth(token);
    if let Some(body) = body {
        builder = builder.json(body);
    }
    send(builder)
}

/// Creates a rated game of the app (each seat `{"player", "name"}` or `{"bot"}`).
fn create_rated(roadie: &Roadie, app: &App, seats: Value, seed: u64) -> String {
    let body = json!({"ruleset": RULESET, "seats": seats, "rated": true, "seed": seed});
    let created = call(roadie, "POST", "/v1/games", &app.api_key, Some(&body));
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json["id"].as_str().expect("id").to_owned();
    let game = call(roadie, "GET", &format!("/v1/games/{id}"), &app.api_key, None);
    assert_eq!(game.json["rated"], true, "{}", game.body);
    id
}

/// Plays game `id` to its end through the API, by random legal actions of its players
/// (`tokens[seat]`, each its player's own token; the bots play inside their requests).
fn play(roadie: &Roadie, app: &App, id: &str, tokens: &[Option<&str>], seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..MAX_POSTS {
        let game = call(roadie, "GET", &format!("/v1/games/{id}"), &app.api_key, None);
        assert_eq!(game.status, 200, "{}", game.body);
        if game.json["status"] != "active" {
            assert_eq!(game.json["status"], "finished", "{}", game.body);
            return;
        }
        let seat = game.json["to_act"][0].as_u64().expect("a seat to act") as usize;
        let token = tokens[seat].expect("a player's seat is to act");
        let listed = call(roadie, "GET", &format!("/v1/games/{id}/actions"), token, None);
        assert_eq!(listed.status, 200, "{}", listed.body);
        let actions = listed.json["actions"].as_array().expect("actions");
        assert!(!actions.is_empty(), "seat {seat} is to act with no action");
        let action = actions[rng.random_range(0..actions.len())].clone();
        let posted = call(
            roadie,
            "POST",
            &format!("/v1/games/{id}/actions"),
            token,
            Some(&json!({ "action": action })),
        );
        assert_eq!(posted.status, 200, "{}", posted.body);
    }
    panic!("game {id} did not end within {MAX_POSTS} actions");
}

/// Waits up to 30 s for game `id` to be rated, and answers its `ratings`.
fn rated(roadie: &Roadie, app: &App, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let game = call(roadie, "GET", &format!("/v1/games/{id}"), &app.api_key, None);
        if game.json["ratings"].is_array() {
            return game.json["ratings"].clone();
        }
        assert!(
            Instant::now() < deadline,
            "game {id} was never rated: {}",
            game.body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn body_data(browser: &Browser, key: &str) -> String {
    browser
        .read(&format!("document.body.dataset.{key} ?? ''"))
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Waits up to 60 s for `done`, failing at once if the page shows an error.
fn wait_page(browser: &Browser, what: &str, done: impl Fn(&Browser) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if done(browser) {
            return;
        }
        let error = browser.read(
            "(() => { const e = document.getElementById('error'); return e && !e.hidden ? e.textContent : null; })()",
        );
        assert!(
            error.is_null(),
            "the page shows an error while waiting for {what}: {error}"
        );
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Opens the lobby and gives it `token` as the tab's player token.
fn sign_in(browser: &Browser, roadie: &Roadie, token: &str, player: &str) {
    browser.open(&roadie.url("/play/"));
    wait_page(browser, "the lobby", |b| body_data(b, "ready") == "true");
    assert_eq!(
        browser.read("document.querySelector('#open-list .nil')?.textContent ?? ''"),
        json!("This server's games belong to apps: use your player token above to see the open ones."),
        "without a player token, the lobby says what it needs"
    );
    browser.type_into("#player-token", token);
    browser.click("#player-use");
    wait_page(browser, "the player's profile", |b| body_data(b, "me") == player);
    assert_eq!(
        browser.read("getComputedStyle(document.getElementById('player-form')).display"),
        json!("none"),
        "the token's field is put away once a token is held"
    );
}

/// `+12`, `−5` or `±0`, as the table shows a change.
fn signed(delta: i64) -> String {
    match delta {
        d if d > 0 => format!("+{d}"),
        d if d < 0 => format!("\u{2212}{}", -d),
        _ => "\u{b1}0".into(),
    }
}

/// The rating changes the table shows, row by row.
fn shown_changes(browser: &Browser) -> Value {
    browser.read(
        "[...document.querySelectorAll('#ratings tr.rating-row')].map((tr) => ({seat: Number(tr.dataset.seat), \
         who: tr.cells[1].textContent, move: tr.querySelector('.rating-move').textContent, \
         delta: tr.querySelector('.rating-delta').textContent, place: Number(tr.cells[0].textContent)}))",
    )
}

/// The rows of the API's `ratings` as the table must show them: by place, then seat.
fn expected_changes(ratings: &Value, names: &[&str]) -> Vec<(u64, String, String, String, u64)> {
    let mut rows: Vec<(u64, String, String, String, u64)> = ratings
        .as_array()
        .expect("ratings")
        .iter()
        .map(|r| {
            let seat = r["seat"].as_u64().expect("seat");
            let before = r["before"]["rating"].as_i64().expect("before");
            let after = r["after"]["rating"].as_i64().expect("after");
            (
                seat,
                names[seat as usize].to_owned(),
                format!("{before} \u{2192} {after}"),
                signed(after - before),
                r["place"].as_u64().expect("place"),
            )
        })
        .collect();
    rows.sort_by_key(|r| (r.4, r.0));
    rows
}

fn assert_changes_shown(browser: &Browser, ratings: &Value, names: &[&str]) {
    let shown = shown_changes(browser);
    let shown: Vec<(u64, String, String, String, u64)> = shown
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["seat"].as_u64().expect("seat"),
                r["who"].as_str().expect("who").to_owned(),
                r["move"].as_str().expect("move").to_owned(),
                r["delta"].as_str().expect("delta").to_owned(),
                r["place"].as_u64().expect("place"),
            )
        })
        .collect();
    let expected = expected_changes(ratings, names);
    assert_eq!(shown.len(), expected.len(), "one row per seat: {shown:?}");
    for (row, want) in shown.iter().zip(&expected) {
        assert_eq!(
            (row.0, &row.2, &row.3, row.4),
            (want.0, &want.2, &want.3, want.4),
            "the table's rating change of seat {}",
            want.0
        );
        assert!(
            row.1.contains(&want.1),
            "seat {} is named {:?} in {:?}",
            want.0,
            want.1,
            row.1
        );
    }
}

/// The API's leaderboard of the ruleset, page by page of `limit` rows: each page's rows as the
/// lobby shows them (rank, name, rating, games, wins).
fn leaderboard_pages(roadie: &Roadie, token: &str, limit: usize) -> Vec<Vec<(String, Vec<String>)>> {
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/rulesets/{RULESET}/leaderboard?limit={limit}&min_games=0");
        if let Some(cursor) = &cursor {
            path.push_str(&format!("&cursor={cursor}"));
        }
        let page = call(roadie, "GET", &path, token, None);
        assert_eq!(page.status, 200, "{}", page.body);
        pages.push(
            page.json["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| {
                    let cells = ["rank", "name", "rating", "games", "wins"]
                        .iter()
                        .map(|k| match &r[*k] {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect();
                    (r["player"].as_str().expect("player").to_owned(), cells)
                })
                .collect(),
        );
        match page.json["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return pages,
        }
    }
}

/// The leaderboard's rows as the lobby shows them.
fn shown_board(browser: &Browser) -> Vec<(String, Vec<String>)> {
    let rows = browser.read(
        "[...document.querySelectorAll('#board tbody tr')].map((tr) => [tr.dataset.player, [...tr.cells].map((td) => td.textContent)])",
    );
    serde_json::from_value(rows).expect("rows")
}

/// Saves a screenshot under `target/`; with `ROADIE_UPDATE_SCREENSHOTS` set, also to `docs/web/`.
fn save_screenshot(png: &[u8], name: &str) {
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    assert!(
        png.len() >= 40_000,
        "{name}: a {} byte screenshot is a blank page",
        png.len()
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("write screenshot");
    if std::env::var_os("ROADIE_UPDATE_SCREENSHOTS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/web");
        std::fs::create_dir_all(&docs).expect("docs/web");
        std::fs::write(docs.join(format!("{name}.png")), png).expect("write docs screenshot");
    }
}

/// Opens the player's game `id` from the lobby's list of its games: the table finds the seat the
/// player token opens.
fn open_my_game(browser: &Browser, id: &str) {
    browser.click(&format!("li.my-game[data-id=\"{id}\"] a.my-game-link"));
    wait_page(browser, "the player's table", |b| body_data(b, "viewer") == "0");
    let current = browser.read("document.querySelector('button.viewer.current')?.textContent ?? ''");
    assert!(
        current.as_str().is_some_and(|t| t.starts_with("Seat 0 · Ann")),
        "the table plays the player's own seat: {current}"
    );
}

fn assert_no_console_errors(browser: &Browser) {
    let errors: Vec<String> = browser
        .console_errors()
        .into_iter()
        // Before the player token is given, the lobby's list of open games is refused.
        .filter(|e| !(e.contains("/v1/games?") && e.contains("401")))
        .collect();
    assert_eq!(errors, Vec::<String>::new(), "console errors");
}

#[test]
fn a_rated_games_end_shows_each_seats_rating_change_and_the_lobby_the_leaderboard() {
    let app = App::new(&scratch("web-ratings-app"));
    let ann = app.player("u-ann", "Ann");
    let bea = app.player("u-bea", "Bea");
    let cy = app.player("u-cy", "Cy");
    let dan = app.player("u-dan", "Dan");
    let ann_bea_bot =
        json!([{"player": "u-ann", "name": "Ann"}, {"player": "u-bea", "name": "Bea"}, {"bot": "greedy"}]);
    let names = ["Ann", "Bea", "greedy bot"];
    let driver = Driver::start();
    let browser = driver.browser("web_ratings", WINDOW);

    // A server whose rater does not come round again within the test: the finished game waits
    // to be rated, and the table says so while it keeps following the game.
    let redis = Redis::start();
    let waiting = app.server("web_ratings_waiting", &redis, 3_600_000);
    let id = create_rated(&waiting, &app, ann_bea_bot.clone(), 7);
    sign_in(&browser, &waiting, &ann, "u-ann");
    open_my_game(&browser, &id);
    play(&waiting, &app, &id, &[Some(&ann), Some(&bea), None], 7);
    let game = call(&waiting, "GET", &format!("/v1/games/{id}"), &app.api_key, None);
    assert_eq!(
        (game.json["rated"].clone(), game.json["ratings"].clone()),
        (json!(true), Value::Null),
        "{}",
        game.body
    );
    wait_page(&browser, "the rating to be awaited", |b| {
        body_data(b, "ratings") == "pending"
    });
    assert_eq!(browser.text("#ratings-pending"), "rating\u{2026}");
    wait_page(
        &browser,
        "the table to follow the finished game by long polls",
        |b| body_data(b, "live") == "poll",
    );
    assert_no_console_errors(&browser);
    browser.open("about:blank");
    drop(waiting);

    // A server that rates: Bea, Cy and Dan play one rated game, then Ann, Bea and a greedy bot
    // another, while Ann watches at the table.
    let redis = Redis::start();
    let roadie = app.server("web_ratings", &redis, 1000);
    let first = create_rated(
        &roadie,
        &app,
        json!([{"player": "u-bea", "name": "Bea"}, {"player": "u-cy", "name": "Cy"}, {"player": "u-dan", "name": "Dan"}]),
        5,
    );
    play(&roadie, &app, &first, &[Some(&bea), Some(&cy), Some(&dan)], 5);
    rated(&roadie, &app, &first);
    let id = create_rated(&roadie, &app, ann_bea_bot, 6);
    sign_in(&browser, &roadie, &ann, "u-ann");
    open_my_game(&browser, &id);
    // Whether the table ever says "rating…", and that it is never reloaded.
    browser.run_async(
        "window.sawRating = false; new MutationObserver(() => { if (document.getElementById('ratings-pending')) window.sawRating = true; })\
         .observe(document.body, {subtree: true, childList: true}); arguments[0](true);",
        vec![],
    );
    play(&roadie, &app, &id, &[Some(&ann), Some(&bea), None], 6);
    let over = Instant::now();
    let mut unrated_for = Duration::ZERO;
    let ratings = loop {
        let game = call(&roadie, "GET", &format!("/v1/games/{id}"), &app.api_key, None);
        if game.json["ratings"].is_array() {
            break game.json["ratings"].clone();
        }
        unrated_for = over.elapsed();
        assert!(
            unrated_for < Duration::from_secs(30),
            "never rated: {}",
            game.body
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    wait_page(&browser, "the rating changes", |b| {
        body_data(b, "ratings") == "shown"
    });
    assert_eq!(
        browser.read("window.sawRating === true || window.sawRating === false"),
        json!(true),
        "the table was reloaded"
    );
    println!(
        "rated {unrated_for:?} after the end; the table said \"rating…\" meanwhile: {}",
        browser.read("window.sawRating")
    );
    if unrated_for >= Duration::from_millis(800) {
        assert_eq!(
            browser.read("window.sawRating"),
            json!(true),
            "the game was unrated for {unrated_for:?}, and the table never said so"
        );
    }
    assert_changes_shown(&browser, &ratings, &names);
    assert_eq!(
        browser.read("document.querySelectorAll('#ratings tr.rating-row.mine').length"),
        json!(1),
        "the player's own row is marked"
    );
    let logged = call(
        &roadie,
        "GET",
        &format!("/v1/games/{id}/events?after=0&limit=5000"),
        &ann,
        None,
    );
    let event = logged.json["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["body"]["type"] == "ratings_changed")
        .unwrap_or_else(|| panic!("no ratings_changed event: {}", logged.body));
    assert_eq!(event["body"]["ratings"], ratings, "the event and the game agree");
    wait_page(&browser, "the ratings_changed event's sentence", |b| {
        b.read("[...document.querySelectorAll('#events li')].some((li) => li.textContent.includes('The game was rated'))") == json!(true)
    });
    browser.run_async(
        "document.getElementById('outcome').scrollIntoView(); arguments[0](true);",
        vec![],
    );
    save_screenshot(&browser.screenshot(), "ratings");
    assert_no_console_errors(&browser);

    // The lobby: Ann's own rating, and the leaderboard row for row, page by page.
    sign_in_again(&browser, &roadie);
    let me = call(&roadie, "GET", "/v1/me", &ann, None);
    assert_eq!(me.status, 200, "{}", me.body);
    let mine = me.json["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .find(|r| r["ruleset"] == RULESET)
        .expect("Ann's rating")
        .clone();
    let ann_after = ratings
        .as_array()
        .expect("ratings")
        .iter()
        .find(|r| r["seat"] == 0)
        .expect("seat 0")["after"]["rating"]
        .clone();
    assert_eq!(
        mine["rating"], ann_after,
        "her rating is the one her game left her"
    );
    assert_eq!(
        browser.text(&format!(".my-ratings tr[data-ruleset=\"{RULESET}\"] .my-rating")),
        mine["rating"].to_string(),
        "the lobby shows her rating"
    );
    assert!(
        browser.text("#me .player-line").contains("Ann"),
        "the lobby names her"
    );

    let everyone: Vec<(String, Vec<String>)> = leaderboard_pages(&roadie, &ann, 100).concat();
    assert_eq!(everyone.len(), 4, "four rated players: {everyone:?}");
    wait_page(&browser, "the leaderboard", |b| !shown_board(b).is_empty());
    assert_eq!(shown_board(&browser), everyone, "the leaderboard's one page");
    assert_eq!(
        browser.read("document.querySelector('#board tr.mine')?.dataset.player"),
        json!("u-ann"),
        "her row is marked"
    );
    let pages = leaderboard_pages(&roadie, &ann, 3);
    assert_eq!(
        pages.iter().map(Vec::len).collect::<Vec<_>>(),
        [3, 1],
        "{pages:?}"
    );
    let loads = body_data(&browser, "boardLoads");
    browser.type_into("#board-rows", "3");
    browser.click("#board-show");
    wait_page(&browser, "the leaderboard's first page", |b| {
        body_data(b, "boardLoads") != loads
    });
    assert_eq!(shown_board(&browser), pages[0], "the first page");
    assert_eq!(
        browser.read("document.getElementById('board-more').hidden"),
        json!(false),
        "a next page is offered"
    );
    let loads = body_data(&browser, "boardLoads");
    browser.click("#board-more");
    wait_page(&browser, "the leaderboard's next page", |b| {
        body_data(b, "boardLoads") != loads
    });
    assert_eq!(
        shown_board(&browser),
        pages.concat(),
        "both pages, one below the other"
    );
    assert_eq!(
        browser.read("document.getElementById('board-more').hidden"),
        json!(true),
        "no page after the last"
    );
    assert_eq!(
        shown_board(&browser),
        everyone,
        "the pages make the whole leaderboard"
    );
    browser.run_async(
        "document.getElementById('player').scrollIntoView(); arguments[0](true);",
        vec![],
    );
    save_screenshot(&browser.screenshot(), "leaderboard");
    assert_no_console_errors(&browser);

    // A game of the app Ann did not play in: she watches it by her player token, as a
    // spectator, and sees its rating changes too.
    browser.open(&roadie.url(&format!("/play/{first}")));
    wait_page(&browser, "the other game's table", |b| {
        body_data(b, "viewer") == "spectator" && body_data(b, "ratings") == "shown"
    });
    assert_changes_shown(&browser, &rated(&roadie, &app, &first), &["Bea", "Cy", "Dan"]);
    assert_eq!(
        browser.read("document.querySelectorAll('#ratings tr.rating-row.mine').length"),
        json!(0),
        "a spectator has no row of its own"
    );
    assert_no_console_errors(&browser);
}

/// Opens the lobby again in the same tab: the player token is still held.
fn sign_in_again(browser: &Browser, roadie: &Roadie) {
    browser.open(&roadie.url("/play/"));
    wait_page(browser, "the lobby", |b| body_data(b, "ready") == "true");
    wait_page(browser, "the player's profile", |b| body_data(b, "me") == "u-ann");
}
