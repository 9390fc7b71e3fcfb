//! The web table at `/play/`, in Debian's headless Chromium driven through `/usr/bin/chromedriver`
//! (WebDriver): every ruleset is played by clicks only from the lobby to the final scores, one game
//! with two seats in two browsers that see each other's moves without reloading. At mid-game each
//! table must teach its game (event lines as sentences, a card's text in its tooltip, a rule id
//! opening the rules panel, the "How to play" overview) and is photographed under `target/`
//! (`ROADIE_UPDATE_SCREENSHOTS=1` copies the pictures to `docs/`); the browser's console must stay
//! free of errors.

use std::collections::BTreeSet;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::browser::{Browser, Driver};
use crate::support::{Redis, Roadie};

/// Most clicks a game may take before the test calls it stuck.
const MAX_CLICKS: usize = 1500;

/// The browser window's size, in pixels.
const WINDOW: (u32, u32) = (1280, 1400);

/// A PNG of the table below this size is a blank or broken page.
const MIN_SCREENSHOT_BYTES: usize = 40_000;

/// What the table publishes for tests on `<body data-...>` and in its error line.
trait Table {
    /// `document.body.dataset[key]`, or empty.
    fn body_data(&self, key: &str) -> String;
    /// The error line's text while it is shown.
    fn error_line(&self) -> Option<String>;
    /// Waits up to 90 s for `done`, failing at once if the page shows an error.
    fn wait_settled(&self, what: &str, done: impl Fn(&Self) -> bool);
}

impl Table for Browser<'_> {
    fn body_data(&self, key: &str) -> String {
        self.read(&format!("document.body.dataset.{key} ?? ''"))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    fn error_line(&self) -> Option<String> {
        let shown = self.read(
            "(() => { const e = document.getElementById('error'); return e && !e.hidden ? e.textContent : null; })()",
        );
        shown.as_str().map(str::to_owned)
    }

    fn wait_settled(&self, what: &str, done: impl Fn(&Self) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if done(self) {
                return;
            }
            if let Some(error) = self.error_line() {
                panic!("the page shows an error while waiting for {what}: {error}");
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }
}

fn wait_for(what: &str, within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Fills the lobby's form by clicks and typing, creates the game, and returns the seat links.
fn create_in_lobby(
    browser: &Browser,
    roadie: &Roadie,
    ruleset: &str,
    seats: usize,
    seed: u64,
    options: &[(&str, &str)],
) -> Vec<String> {
    browser.open(&roadie.url("/play/"));
    browser.wait_settled("the lobby", |b| b.body_data("ready") == "true");
    browser.click(&format!("#ruleset option[value=\"{ruleset}\"]"));
    browser.wait_settled("the ruleset's options", |b| b.body_data("ruleset") == ruleset);
    browser.type_into("#seats", &seats.to_string());
    browser.type_into("#seed", &seed.to_string());
    for (name, value) in options {
        browser.type_into(&format!("#option-{name}"), value);
    }
    browser.click("#create-button");
    browser.wait_settled("the seat links", |b| {
        b.read("document.querySelectorAll('a.seat-link').length") == json!(seats)
    });
    let links = browser.read("[...document.querySelectorAll('a.seat-link')].map((a) => a.href)");
    let links: Vec<String> = links
        .as_array()
        .expect("links")
        .iter()
        .filter_map(|l| l.as_str().map(str::to_owned))
        .collect();
    for link in &links {
        assert!(
            link.contains("/play/") && link.contains("#token="),
            "a seat link holds its token in the fragment: {link}"
        );
    }
    links
}

/// The game's id, from the table's address.
fn game_id(browser: &Browser) -> String {
    let path = browser.read("location.pathname");
    path.as_str()
        .and_then(|p| p.strip_prefix("/play/"))
        .expect("a table address")
        .to_owned()
}

/// Clicks one of the legal actions, picked by `rng`: its button, or its entry in the list of
/// its type and that list's button; then waits for the table to show the next state.
fn click_action(browser: &Browser, rng: &mut ChaCha8Rng) {
    let before = browser.body_data("settled");
    let count: u64 = browser
        .body_data("actions")
        .parse()
        .expect("the count of actions");
    assert!(count > 0, "the acting seat's table shows no action");
    let index = rng.random_range(0..count);
    let button = format!("button.action[data-index=\"{index}\"]");
    if browser.read(&format!("document.querySelector('{button}') !== null")) == json!(true) {
        browser.click(&button);
    } else {
        browser.click(&format!("select.action-group option[data-index=\"{index}\"]"));
        let group = browser.read(&format!(
            "document.querySelector('option[data-index=\"{index}\"]').closest('select').dataset.type"
        ));
        let group = group.as_str().expect("the list's action type");
        browser.click(&format!("button.action-go[data-type=\"{group}\"]"));
    }
    browser.wait_settled("the table after a click", |b| b.body_data("settled") != before);
}

/// Saves a screenshot under `target/`; with `ROADIE_UPDATE_SCREENSHOTS` set, a `documented` one
/// is also copied to `docs/web/` for the README.
fn save_screenshot(png: &[u8], name: &str, documented: bool) -> PathBuf {
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    assert!(
        png.len() >= MIN_SCREENSHOT_BYTES,
        "{name}: a {} byte screenshot is a blank page",
        png.len()
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).expect("write screenshot");
    if documented && std::env::var_os("ROADIE_UPDATE_SCREENSHOTS").is_some() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/web");
        std::fs::create_dir_all(&docs).expect("docs/web");
        std::fs::write(docs.join(format!("{name}.png")), png).expect("write docs screenshot");
    }
    path
}

/// The final scores as the finished page shows them, checked against the API's outcome.
fn assert_final_scores(browser: &Browser, roadie: &Roadie, id: &str, seats: usize) {
    let game = roadie.get(&format!("/v1/games/{id}"), None);
    assert_eq!(game.json["status"], "finished");
    let revision = game.json["revision"].as_str().expect("revision").to_owned();
    browser.wait_settled("the finished game", |b| b.body_data("settled") == revision);
    assert!(
        browser.read("!document.getElementById('outcome').hidden") == json!(true),
        "the final scores are shown"
    );
    let rows = browser.read("document.querySelectorAll('#outcome table.scores tbody tr').length");
    assert_eq!(rows, json!(seats), "one score row per seat");
    let winners = game.json["outcome"]["winners"].as_array().expect("winners").len();
    let highlighted = browser.read("document.querySelectorAll('#outcome tr.winner').length");
    assert_eq!(highlighted, json!(winners), "the winners' rows are marked");
    let marked = browser.read("document.querySelector('#machine .phase.current')?.dataset.phase");
    assert_eq!(
        marked, game.json["phase"],
        "the phase list marks the current phase"
    );
    let log = roadie.get(&format!("/v1/games/{id}/events?after=0&limit=5000"), None);
    let logged = log.json["events"].as_array().expect("events").len().min(200);
    let shown = browser.read("document.querySelectorAll('#events li').length");
    assert_eq!(shown, json!(logged), "the finished game's whole log is shown");
    let actions = browser.read("document.querySelectorAll('button.action, button.action-go').length");
    assert_eq!(actions, json!(0), "a finished game offers no action");
}

/// The names of the components of `kind` in the ruleset's catalogue, as the service serves it.
fn catalogue_names(roadie: &Roadie, ruleset: &str, kind: &str) -> Vec<String> {
    let reply = roadie.get(&format!("/v1/rulesets/{ruleset}/components"), None);
    assert_eq!(reply.status, 200, "{ruleset}'s catalogue");
    let names: Vec<String> = reply.json["components"][kind]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .map(str::to_owned)
        .collect();
    assert!(!names.is_empty(), "{ruleset}'s catalogue has no {kind}");
    names
}

/// The table shows at least one name of a catalogued component of `kind`.
fn assert_shows_a_catalogue_name(browser: &Browser, roadie: &Roadie, ruleset: &str, kind: &str) {
    let names = catalogue_names(roadie, ruleset, kind);
    let text = browser.read("document.getElementById('board').innerText");
    let text = text.as_str().unwrap_or_default();
    assert!(
        names.iter().any(|n| text.contains(n.as_str())),
        "{ruleset}'s table shows none of its {kind} by name ({names:?}):\n{text}"
    );
}

/// The ids of `catalogue` (`{"<kind>": [{"id", "name", ...}]}`) that a page must never show as
/// they are: those with a digit, `-` or `_` that differ from their name (`success-17`, `AR01`,
/// `a_and_r`), but not a plain number (a space's, a chart field's) nor a word that is its own
/// name (Show Business's city `A`).
fn raw_ids(catalogue: &Value) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for entry in catalogue.as_object().into_iter().flat_map(|kinds| kinds.values()) {
        for component in entry.as_array().into_iter().flatten() {
            let id = match &component["id"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let name = component["name"].as_str().unwrap_or_default();
            let looks_like_an_id = id.contains(|c: char| c.is_ascii_digit() || c == '-' || c == '_');
            if looks_like_an_id && !id.chars().all(|c| c.is_ascii_digit()) && !id.eq_ignore_ascii_case(name) {
                ids.insert(id);
            }
        }
    }
    ids
}

/// What is wrong with an event line as a person reads it: a brace, a raw value, a `snake_case`
/// word or a catalogue id where its name belongs.
fn unreadable(line: &str, raw: &BTreeSet<String>) -> Vec<String> {
    let mut wrong: Vec<String> = ["{", "}", "undefined", "null", "[object", "NaN", "_"]
        .into_iter()
        .filter(|junk| line.contains(junk))
        .map(|junk| format!("shows {junk:?}"))
        .collect();
    wrong.extend(
        line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .filter(|word| raw.contains(*word))
            .map(|word| format!("shows the id {word}")),
    );
    wrong
}

/// The table teaches its game at this point of play: every event line is a sentence from the
/// ruleset's templates without braces or raw ids; a card's tooltip shows the catalogue's text for
/// it; a rule id in that text opens the rules panel on that rule; the "How to play" panel shows
/// the served overview; the current phase's rule ids open their rules too.
fn assert_table_teaches(browser: &Browser, roadie: &Roadie, ruleset: &str) {
    let catalogue = roadie
        .get(&format!("/v1/rulesets/{ruleset}/components"), None)
        .json["components"]
        .clone();
    let rules = roadie.get(&format!("/v1/rulesets/{ruleset}/rules"), None);
    assert_eq!(rules.status, 200, "{ruleset}'s rules");
    let rule = |id: &str| -> Value {
        rules.json["rules"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{ruleset} serves no rule {id}"))
    };

    let lines = browser.read(
        "[...document.querySelectorAll('#events li')].map((li) => [li.dataset.type, li.dataset.rendered, li.textContent])",
    );
    let lines = lines.as_array().expect("event lines");
    assert!(lines.len() >= 5, "{ruleset}: only {} event lines", lines.len());
    let raw = raw_ids(&catalogue);
    assert!(raw.len() > 10, "{ruleset}: too few ids to look for: {raw:?}");
    for line in lines {
        let text = line[2].as_str().unwrap_or_default();
        assert_eq!(
            line[1], "template",
            "{ruleset}: {} has no sentence: {text}",
            line[0]
        );
        let wrong = unreadable(text, &raw);
        assert!(wrong.is_empty(), "{ruleset}: the event line {text:?} {wrong:?}");
    }

    let pieces = browser.read(
        "[...document.querySelectorAll('#board [data-tip]')].map((el) => [el.dataset.tipKind, el.dataset.tip, el.classList.contains('card')])",
    );
    let described = |piece: &Value| -> Option<String> {
        let kind = piece[0].as_str()?;
        let id = piece[1].as_str()?;
        catalogue[kind].as_array()?.iter().find(|c| {
            c["id"]
                .as_str()
                .map_or_else(|| c["id"].to_string(), str::to_owned)
                == id
        })?["text"]
            .as_str()
            .map(str::to_owned)
    };
    let pieces = pieces.as_array().expect("pieces");
    let (index, text) = pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| described(p).map(|text| (i, p[2] == true, text)))
        .max_by_key(|(i, card, _)| (*card, std::cmp::Reverse(*i)))
        .map(|(i, _, text)| (i, text))
        .unwrap_or_else(|| panic!("{ruleset}: no component on the table has a text: {pieces:?}"));
    browser.read(&format!(
        "document.querySelectorAll('#board [data-tip]')[{index}].dataset.probe = 'tip'"
    ));
    browser.click("#board [data-probe=\"tip\"]");
    browser.wait_settled("the tooltip", |b| {
        b.read("(() => { const t = document.getElementById('tip'); return !!t && !t.hidden; })()")
            == json!(true)
    });
    let shown = browser.read("document.getElementById('tip').textContent");
    let shown = shown.as_str().unwrap_or_default();
    assert!(
        shown.contains(&text),
        "{ruleset}: the tooltip shows {shown:?}, not {text:?}"
    );

    let cited = browser.read("document.querySelector('#tip .rule-link')?.dataset.rule ?? null");
    let cited = cited
        .as_str()
        .unwrap_or_else(|| panic!("{ruleset}: the tooltip {shown:?} links no rule"))
        .to_owned();
    browser.click("#tip .rule-link");
    assert_rule_shown(browser, ruleset, &rule(&cited));
    assert_eq!(
        browser.read("document.getElementById('tip').hidden"),
        json!(true),
        "{ruleset}: opening a rule closes the tooltip"
    );

    let phase = browser.read("document.querySelector('#turn .phase-rules .rule-link')?.dataset.rule ?? null");
    if let Some(id) = phase.as_str() {
        browser.click("#turn .phase-rules .rule-link");
        assert_rule_shown(browser, ruleset, &rule(id));
    }

    let how = browser.read("document.getElementById('how-to-play').textContent");
    let how = how.as_str().unwrap_or_default();
    for part in ["goal", "turn", "end"] {
        let served = rule(part);
        let title = served["title"].as_str().expect("a title");
        let text = served["text"].as_str().expect("a text");
        assert!(
            how.contains(title) && how.contains(text),
            "{ruleset}: How to play lacks {part}: {how:?}"
        );
    }
    browser.read("window.scrollTo(0, 0)");
}

/// The rules panel shows `rule` (its id, title and text).
fn assert_rule_shown(browser: &Browser, ruleset: &str, rule: &Value) {
    let id = rule["id"].as_str().expect("an id");
    browser.wait_settled("the rules panel", |b| {
        b.read("document.getElementById('rule-shown')?.dataset.rule ?? null") == json!(id)
    });
    let shown = browser.read("document.getElementById('rule-shown').textContent");
    let shown = shown.as_str().unwrap_or_default();
    for part in ["title", "text"] {
        let served = rule[part].as_str().expect("served");
        assert!(
            shown.contains(served),
            "{ruleset}: the rules panel shows {shown:?}, not {id}'s {part} {served:?}"
        );
    }
}

/// Plays a whole game in one tab that holds every seat, clicking the acting seat's tab, then one
/// of its actions; photographs the table after `shot_at` clicks.
fn play_in_one_tab(
    ruleset: &str,
    seats: usize,
    seed: u64,
    options: &[(&str, &str)],
    shot_at: usize,
    check_names: impl Fn(&Browser, &Roadie),
) -> (Roadie, String) {
    let redis = Redis::start();
    let roadie = Roadie::start(&format!("web_{ruleset}"), Some(&redis), &[("RUST_LOG", "debug")]);
    let driver = Driver::start();
    let browser = driver.browser(&format!("web_{ruleset}"), WINDOW);
    create_in_lobby(&browser, &roadie, ruleset, seats, seed, options);
    browser.click("#play-here");
    browser.wait_settled("the table", |b| !b.body_data("settled").is_empty());
    let id = game_id(&browser);
    assert_refusal_shows_its_detail(&browser, &roadie, &id);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut clicks = 0;
    while browser.body_data("status") == "active" {
        assert!(
            clicks < MAX_CLICKS,
            "{ruleset} did not end in {MAX_CLICKS} clicks"
        );
        let to_act = browser.body_data("toAct");
        let seat = to_act.split(',').next().expect("a seat to act").to_owned();
        if browser.body_data("viewer") != seat {
            browser.click(&format!("button.viewer[data-seat=\"{seat}\"]"));
            browser.wait_settled("the seat's table", |b| b.body_data("viewer") == seat);
        }
        if clicks == shot_at {
            check_names(&browser, &roadie);
            assert_table_teaches(&browser, &roadie, ruleset);
            let path = save_screenshot(&browser.screenshot(), ruleset, true);
            eprintln!("{ruleset}: mid-game table at {}", path.display());
        }
        click_action(&browser, &mut rng);
        clicks += 1;
    }
    assert!(clicks > shot_at, "{ruleset} ended before its mid-game screenshot");
    assert_final_scores(&browser, &roadie, &id, seats);
    // The finished board (every song, chart entry and token in view) reads as words, never as
    // nested JSON.
    let board = browser.read("document.querySelector('#board').textContent");
    let board = board.as_str().unwrap_or_default();
    assert!(
        !board.contains('{'),
        "{ruleset}: the board prints raw JSON: {board}"
    );
    assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
    drop(browser);
    (roadie, id)
}

/// An action the seat may not take, sent from the form the page builds from the ruleset's action
/// schema: the page shows the problem's `detail` and the game does not change.
fn assert_refusal_shows_its_detail(browser: &Browser, roadie: &Roadie, id: &str) {
    let before = roadie.get(&format!("/v1/games/{id}"), None).json["version"].clone();
    let phase = browser.body_data("settled");
    browser.click("#free-action summary");
    let types = browser.read("[...document.querySelectorAll('#action-type option')].map((o) => o.value)");
    let legal =
        browser.read("[...document.querySelectorAll('#action-list [data-type]')].map((b) => b.dataset.type)");
    let illegal = types
        .as_array()
        .expect("action types")
        .iter()
        .filter_map(Value::as_str)
        .filter(|t| !legal.as_array().expect("legal").iter().any(|l| l == t))
        .find(|t| {
            browser.click(&format!("#action-type option[value=\"{t}\"]"));
            browser.read("document.querySelectorAll('#free-action .fields label').length") == json!(0)
        })
        .expect("an action type without fields that the seat may not take now")
        .to_owned();
    browser.click("#action-send");
    wait_for("the refusal's detail", Duration::from_secs(10), || {
        browser.error_line().is_some()
    });
    let shown = browser.error_line().unwrap_or_default();
    let token = browser.read(&format!(
        "JSON.parse(sessionStorage.getItem('roadie:{id}'))[document.body.dataset.viewer]"
    ));
    let refusal = roadie.post(
        &format!("/v1/games/{id}/actions"),
        token.as_str(),
        &json!({"action": {"type": illegal}}),
    );
    assert!(refusal.status >= 400 && refusal.status < 500, "{refusal:?}");
    let detail = refusal.json["detail"].as_str().expect("a detail");
    assert!(
        shown == detail,
        "the page shows {shown:?}, the problem says {detail:?}"
    );
    assert_eq!(
        roadie.get(&format!("/v1/games/{id}"), None).json["version"],
        before
    );
    assert_eq!(browser.body_data("settled"), phase, "a refusal changes nothing");
    let errors = browser.console_errors();
    assert!(
        errors
            .iter()
            .all(|e| e.contains("/actions - Failed to load resource") && e.contains("status of 4")),
        "console errors besides the refused post: {errors:?}"
    );
    browser.click("#free-action summary");
}

/// The server never logged a seat token, even at `debug`, where every request is logged.
fn assert_no_token_logged(roadie: &Roadie) {
    let log = roadie.log_text();
    assert!(!log.is_empty(), "the server logged nothing");
    assert!(!log.contains("eyJ"), "a token reached the server's log:\n{log}");
}

#[test]
fn pages_and_assets_carry_a_strict_content_security_policy() {
    let roadie = Roadie::start("web_csp", None, &[]);
    for path in [
        "/play/",
        "/play/0123456789abcdef01234567",
        "/play/assets/table.js",
        "/play/assets/style.css",
    ] {
        let reply = roadie.get(path, None);
        assert_eq!(reply.status, 200, "{path}");
        let csp = reply.header("content-security-policy").expect("a CSP");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    }
    let script = roadie.get("/play/assets/table.js", None);
    assert!(
        script
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/javascript"))
    );
    let page = roadie
        .http
        .get(roadie.url("/play/"))
        .send()
        .expect("lobby")
        .text()
        .expect("html");
    assert!(
        !page.contains("<script>") && !page.contains("style="),
        "no inline script or style"
    );
    roadie
        .get("/play/assets/nothing.js", None)
        .assert_problem(404, "route_not_found");
    let redirect = roadie.request(roadie.http.get(roadie.url("/play")));
    assert_eq!(redirect.status, 200, "/play leads to the lobby");
}

#[test]
fn shrewd_producer_is_played_to_the_end_by_clicks() {
    let (roadie, _) = play_in_one_tab("shrewd-producer", 3, 11, &[], 60, |browser, roadie| {
        assert_shows_a_catalogue_name(browser, roadie, "shrewd-producer", "artists");
        assert_shows_a_catalogue_name(browser, roadie, "shrewd-producer", "songs");
    });
    assert_no_token_logged(&roadie);
}

#[test]
fn show_business_is_played_to_the_end_by_clicks() {
    let (roadie, _) = play_in_one_tab("show-business", 2, 7, &[], 40, |browser, roadie| {
        assert_shows_a_catalogue_name(browser, roadie, "show-business", "artists");
        assert_shows_a_catalogue_name(browser, roadie, "show-business", "event_rondel_fields");
        // Die faces and the rondel field are shown by their printed names, never by their ids.
        let faces = catalogue_names(roadie, "show-business", "die_faces");
        let dice = browser.read("[...document.querySelectorAll('.die')].map((d) => d.textContent)");
        let dice = dice.as_array().expect("dice");
        assert!(!dice.is_empty(), "no dice drawn");
        for die in dice {
            let die = die.as_str().unwrap_or_default();
            assert!(
                die == "–" || faces.iter().any(|f| f == die),
                "a die shows {die:?}, not a catalogued face name"
            );
        }
        let rondel = browser.read("document.querySelector('.sb .stats b').textContent");
        assert!(
            catalogue_names(roadie, "show-business", "event_rondel_fields")
                .iter()
                .any(|f| rondel.as_str() == Some(f.as_str())),
            "the rondel shows {rondel}, not a catalogued field name"
        );
    });
    assert_no_token_logged(&roadie);
}

/// A finished Show Business game of two greedy bots, seen by a spectator: every song on the band
/// boards and the charts reads as its number, its owner and its fields in words.
#[test]
fn show_business_songs_read_as_words() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_sb_songs", Some(&redis), &[]);
    // The bots' own choices are not fixed by the seed, so a game may end with empty charts:
    // games are played until one has a song on them, a bounded number of times.
    let (id, charted) = (0..20)
        .find_map(|_| {
            let created = roadie.post(
                "/v1/games",
                None,
                &json!({"ruleset": "show-business", "seats": [{"bot": "greedy"}, {"bot": "greedy"}]}),
            );
            assert_eq!(created.status, 201, "{}", created.json);
            let id = created.json["id"].as_str().expect("an id").to_owned();
            let game = roadie.get(&format!("/v1/games/{id}"), None);
            assert_eq!(
                game.json["status"], "finished",
                "two bots play the game out at creation"
            );
            let charted = game.json["view"]["chart"]
                .as_array()
                .expect("the charts")
                .iter()
                .map(|field| field.as_array().map_or(0, Vec::len))
                .sum::<usize>();
            (charted > 0).then_some((id, charted))
        })
        .expect("one of 20 games of two greedy bots ends with a song on the charts");
    let driver = Driver::start();
    let browser = driver.browser("web_sb_songs", WINDOW);
    browser.open(&roadie.url(&format!("/play/{id}")));
    browser.wait_settled("the table", |b| !b.body_data("settled").is_empty());
    let songs = browser.read("[...document.querySelectorAll('#board .song')].map((s) => s.textContent)");
    let songs = songs.as_array().expect("songs");
    assert!(
        songs.len() >= charted,
        "{} songs drawn for {charted} on the charts",
        songs.len()
    );
    for song in songs {
        let song = song.as_str().unwrap_or_default();
        assert!(
            song.starts_with("Song ")
                && song.contains("experience")
                && !song.contains('{')
                && !song.contains('_'),
            "a song reads {song:?}"
        );
    }
    let board = browser.read("document.querySelector('#board').textContent");
    assert!(
        !board.as_str().unwrap_or_default().contains('{'),
        "the board prints raw JSON: {board}"
    );
}

/// Rock the World with a turn cap of 3 per seat, each seat in its own browser: each sees the
/// other's moves by itself (the push stream), without a reload.
#[test]
fn rock_the_world_is_played_by_two_browsers_that_see_each_other() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_rock-the-world", Some(&redis), &[("RUST_LOG", "debug")]);
    let driver = Driver::start();
    let first = driver.browser("web_rtw_seat0", WINDOW);
    let second = driver.browser("web_rtw_seat1", WINDOW);
    let links = create_in_lobby(
        &first,
        &roadie,
        "rock-the-world",
        2,
        5,
        &[("max_turns_per_seat", "3")],
    );
    first.click("a.seat-link[data-seat=\"0\"]");
    second.open(&links[1]);
    let browsers = [&first, &second];
    for (seat, browser) in browsers.iter().enumerate() {
        browser.wait_settled("the table", |b| b.body_data("viewer") == seat.to_string());
        browser.wait_settled("the table's live updates", |b| !b.body_data("live").is_empty());
        assert_eq!(
            browser.body_data("live"),
            "stream",
            "the table follows the push stream"
        );
        let address = browser.read("location.href");
        assert!(
            !address.as_str().unwrap_or_default().contains("token"),
            "the token left the address bar: {address}"
        );
    }
    let id = game_id(&first);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut clicks = 0;
    let mut settled = first.body_data("settled");
    loop {
        // Both tables show the state the last click made before anyone moves again: the one
        // that did not click caught up by itself.
        for browser in browsers {
            browser.wait_settled("both browsers to show the last move", |b| {
                b.body_data("settled") == settled
            });
        }
        if first.body_data("status") != "active" {
            break;
        }
        assert!(clicks < MAX_CLICKS, "rock-the-world did not end");
        let to_act = first.body_data("toAct");
        let seat: usize = to_act
            .split(',')
            .next()
            .and_then(|s| s.parse().ok())
            .expect("a seat to act");
        click_action(browsers[seat], &mut rng);
        settled = browsers[seat].body_data("settled");
        clicks += 1;
        if clicks == 6 {
            for browser in browsers {
                browser.wait_settled("both browsers to show the move", |b| {
                    b.body_data("settled") == settled
                });
                assert_shows_a_catalogue_name(browser, &roadie, "rock-the-world", "characters");
                assert_shows_a_catalogue_name(browser, &roadie, "rock-the-world", "spaces");
                assert_table_teaches(browser, &roadie, "rock-the-world");
            }
            let legend = first.text(".rtw .legend");
            assert!(
                ["red", "blue", "yellow", "green", "R1", "R26"]
                    .iter()
                    .all(|w| legend.contains(w)),
                "the cities' icons have a legend: {legend:?}"
            );
            save_screenshot(&first.screenshot(), "rock-the-world", true);
            save_screenshot(&second.screenshot(), "rock-the-world-seat-1", false);
        }
    }
    assert!(clicks > 6, "the game ended before its mid-game screenshot");
    for browser in browsers {
        assert_final_scores(browser, &roadie, &id, 2);
        assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
    }
    second.click("button.viewer[data-seat=\"spectator\"]");
    second.wait_settled("the spectator's table", |b| b.body_data("viewer") == "spectator");
    assert_eq!(
        second.read("document.querySelectorAll('button.action').length"),
        json!(0),
        "a spectator has no action"
    );
    // Readable on a phone: at 420 px, nothing is wider than the window.
    first.resize(420, 900);
    first.wait_settled("the narrow layout", |b| {
        b.read("window.innerWidth").as_u64().is_some_and(|w| w <= 420)
    });
    let overflow = first.read("document.documentElement.scrollWidth - window.innerWidth");
    assert!(
        overflow.as_i64().is_some_and(|o| o <= 0),
        "the table is wider than a phone: {overflow}"
    );
    save_screenshot(&first.screenshot(), "rock-the-world-phone", false);
    assert_no_token_logged(&roadie);
}

/// How the lobby's creation form seats one seat.
enum SeatChoice<'a> {
    /// A player with a link, named when `Some`.
    Player(Option<&'a str>),
    /// Open: anyone may join it from the lobby.
    Open,
    /// A bot of this level.
    Bot(&'a str),
}

/// Opens the lobby with `ruleset` chosen and its open games listed.
fn open_lobby(browser: &Browser, roadie: &Roadie, ruleset: &str) {
    browser.open(&roadie.url("/play/"));
    browser.wait_settled("the lobby", |b| b.body_data("ready") == "true");
    browser.click(&format!("#ruleset option[value=\"{ruleset}\"]"));
    browser.wait_settled("the ruleset's open games", |b| {
        b.body_data("openListed") == ruleset
    });
}

/// Creates a game in the lobby with each seat chosen in its row, and a clock of
/// `(per_decision_secs, bank_secs)` when given; answers the game's id.
fn create_seated_in_lobby(
    browser: &Browser,
    roadie: &Roadie,
    ruleset: &str,
    seats: &[SeatChoice],
    clock: Option<(u64, u64)>,
) -> String {
    open_lobby(browser, roadie, ruleset);
    browser.type_into("#seats", &seats.len().to_string());
    browser.wait_settled("a row per seat", |b| {
        b.read("document.querySelectorAll('.seat-row').length") == json!(seats.len())
    });
    for (seat, choice) in seats.iter().enumerate() {
        let kind = match choice {
            SeatChoice::Player(_) => "player",
            SeatChoice::Open => "open",
            SeatChoice::Bot(level) => level,
        };
        browser.click(&format!("#seat-{seat}-kind option[value=\"{kind}\"]"));
        if let SeatChoice::Player(Some(name)) = choice {
            browser.type_into(&format!("#seat-{seat}-name"), name);
        }
    }
    if let Some((decision, bank)) = clock {
        browser.type_into("#clock-decision", &decision.to_string());
        browser.type_into("#clock-bank", &bank.to_string());
    }
    browser.click("#create-button");
    browser.wait_settled("the created game", |b| {
        b.read("document.querySelector('#created a.spectator-link') !== null") == json!(true)
    });
    let spectator = browser.read("document.querySelector('#created a.spectator-link').href");
    spectator
        .as_str()
        .and_then(|href| href.rsplit('/').next())
        .expect("the spectator link names the game")
        .to_owned()
}

/// The table's seat list: each seat's occupant kind and how it is named.
fn seat_list(browser: &Browser) -> Value {
    browser.read(
        "[...document.querySelectorAll('#seat-list li')].map((li) => [li.dataset.occupant, li.querySelector('.occupant').textContent])",
    )
}

/// In the lobby, types `name` into the open seat's field of game `id` and clicks Join.
fn join_from_lobby(browser: &Browser, id: &str, seat: usize, name: &str) {
    let form = format!("li.open-game[data-id=\"{id}\"] form.join[data-seat=\"{seat}\"]");
    browser.type_into(&format!("{form} input.join-name"), name);
    browser.click(&format!("{form} button.join-button"));
}

/// One browser creates a game with a named player, an open seat and a greedy bot; a second finds
/// it in the lobby's open games, joins the open seat by name and reaches its table; both tables
/// then name every occupant.
#[test]
fn a_second_browser_joins_an_open_seat_from_the_lobby() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_join", Some(&redis), &[]);
    let driver = Driver::start();
    let host = driver.browser("web_join_host", WINDOW);
    let guest = driver.browser("web_join_guest", WINDOW);
    let id = create_seated_in_lobby(
        &host,
        &roadie,
        "shrewd-producer",
        &[
            SeatChoice::Player(Some("Ann")),
            SeatChoice::Open,
            SeatChoice::Bot("greedy"),
        ],
        None,
    );
    let created = roadie.get(&format!("/v1/games/{id}"), None);
    assert_eq!(
        created.json["occupants"],
        json!([
            {"seat": 0, "occupant": "player", "name": "Ann"},
            {"seat": 1, "occupant": "open"},
            {"seat": 2, "occupant": "bot", "level": "greedy"},
        ]),
        "the rows' choices reach the creation"
    );
    assert!(
        created.json.get("clock").is_none_or(Value::is_null),
        "no clock unless asked for"
    );
    assert_eq!(
        host.read("[...document.querySelectorAll('#created a.seat-link')].map((a) => a.textContent)"),
        json!(["Seat 0 · Ann"]),
        "only the player's seat has a link"
    );
    host.find("#created li.seat-open[data-seat=\"1\"]");
    host.find("#created li.seat-bot[data-seat=\"2\"]");
    host.find(&format!("li.open-game[data-id=\"{id}\"]"));
    host.click("a.seat-link[data-seat=\"0\"]");
    host.wait_settled("the host's table", |b| b.body_data("viewer") == "0");

    open_lobby(&guest, &roadie, "shrewd-producer");
    let listed = format!("li.open-game[data-id=\"{id}\"]");
    let text = guest.text(&listed);
    assert!(
        text.contains("Seat 0 · Ann") && text.contains("Seat 2 · greedy bot"),
        "the open game says who sits where: {text}"
    );
    save_screenshot(&guest.screenshot(), "lobby-open-games", true);
    join_from_lobby(&guest, &id, 1, "Bea");
    guest.wait_settled("the guest's table", |b| b.body_data("viewer") == "1");

    let seated = json!([["player", "Ann"], ["player", "Bea"], ["bot", "greedy bot"]]);
    for browser in [&host, &guest] {
        browser.wait_settled("the table to name every occupant", |b| seat_list(b) == seated);
        assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
    }
    let button = guest.text("button.viewer[data-seat=\"1\"]");
    assert!(
        button.contains("Bea"),
        "the seat's button names its player: {button}"
    );
    let occupants = roadie.get(&format!("/v1/games/{id}"), None).json["occupants"].clone();
    assert_eq!(
        occupants[1],
        json!({"seat": 1, "occupant": "player", "name": "Bea"})
    );
    save_screenshot(&guest.screenshot(), "table-seats", false);
}

/// "Play now" in the lobby: two browsers that ask for Rock the World at two seats meet at one
/// table, each at its own seat under its name; a third, alone in Shrewd Producer with bots after a
/// second, is seated with bots.
#[test]
fn play_now_seats_strangers_together_and_fills_with_bots_after_a_wait() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_play_now", Some(&redis), &[]);
    let driver = Driver::start();
    let first = driver.browser("web_play_now_first", WINDOW);
    let second = driver.browser("web_play_now_second", WINDOW);
    for (browser, name) in [(&first, "Ann"), (&second, "Bea")] {
        open_lobby(browser, &roadie, "rock-the-world");
        browser.type_into("#seats", "2");
        browser.type_into("#ticket-name", name);
        browser.click("#ticket-button");
        // The second ticket completes the game at once, and its page goes straight to the table.
        browser.wait_settled("the ticket", |b| {
            !b.body_data("ticket").is_empty() || b.read("location.pathname") != "/play/"
        });
    }
    for browser in [&first, &second] {
        browser.wait_settled("the matched table", |b| {
            b.read("location.pathname")
                .as_str()
                .is_some_and(|p| p.len() > "/play/".len())
                && !b.body_data("viewer").is_empty()
        });
    }
    let id = game_id(&first);
    assert_eq!(game_id(&second), id, "both tickets are seated in one game");
    let seats: HashSet<String> = [&first, &second].iter().map(|b| b.body_data("viewer")).collect();
    assert_eq!(
        seats,
        HashSet::from(["0".to_owned(), "1".to_owned()]),
        "each at its own seat"
    );
    let names: HashSet<String> = roadie.get(&format!("/v1/games/{id}"), None).json["occupants"]
        .as_array()
        .expect("occupants")
        .iter()
        .filter_map(|o| o["name"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(names, HashSet::from(["Ann".to_owned(), "Bea".to_owned()]));

    let alone = driver.browser("web_play_now_alone", WINDOW);
    open_lobby(&alone, &roadie, "shrewd-producer");
    alone.type_into("#seats", "3");
    alone.type_into("#ticket-name", "Cy");
    alone.type_into("#ticket-bots", "1");
    alone.click("#ticket-button");
    alone.wait_settled("the table with bots", |b| {
        b.read("location.pathname")
            .as_str()
            .is_some_and(|p| p.len() > "/play/".len())
            && b.body_data("viewer") == "0"
    });
    let occupants = roadie.get(&format!("/v1/games/{}", game_id(&alone)), None).json["occupants"].clone();
    assert_eq!(
        occupants[0],
        json!({"seat": 0, "occupant": "player", "name": "Cy"})
    );
    assert_eq!(
        occupants
            .as_array()
            .map(|o| o.iter().filter(|o| o["occupant"] == "bot").count()),
        Some(2),
        "{occupants}"
    );
    for browser in [&first, &second, &alone] {
        assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
    }
}

/// A game created with a clock shows the acting seat's time left, counting down by itself.
#[test]
fn a_clocked_game_counts_down_on_the_table() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_clock", Some(&redis), &[]);
    let driver = Driver::start();
    let browser = driver.browser("web_clock", WINDOW);
    let id = create_seated_in_lobby(
        &browser,
        &roadie,
        "rock-the-world",
        &[SeatChoice::Player(None), SeatChoice::Player(None)],
        Some((600, 60)),
    );
    let game = roadie.get(&format!("/v1/games/{id}"), None);
    assert_eq!(game.json["clock"]["per_decision_secs"], 600);
    assert_eq!(game.json["clock"]["bank_secs"], 60);
    browser.click("#play-here");
    browser.wait_settled("the table", |b| !b.body_data("settled").is_empty());
    let acting = game.json["to_act"][0].as_u64().expect("a seat to act");
    let left = format!("#seat-list li[data-seat=\"{acting}\"] .clock-left");
    let seconds = |text: &str| -> u64 {
        let (minutes, seconds) = text.split_once(':').expect("m:ss");
        minutes.parse::<u64>().expect("minutes") * 60 + seconds.parse::<u64>().expect("seconds")
    };
    let first = browser.text(&left);
    std::thread::sleep(Duration::from_millis(2500));
    let second = browser.text(&left);
    assert_ne!(first, second, "the countdown did not move");
    assert!(
        seconds(&second) < seconds(&first) && seconds(&first) <= 660,
        "a countdown from at most 11:00 runs down: {first} then {second}"
    );
    for seat in 0..2 {
        let bank = browser.text(&format!("#seat-list li[data-seat=\"{seat}\"] .clock-bank"));
        assert_eq!(bank, "bank 1:00", "seat {seat}'s bank");
    }
    assert_eq!(
        browser.read("document.querySelectorAll('#seat-list .clock-left').length"),
        json!(game.json["to_act"].as_array().map_or(0, Vec::len)),
        "only a seat with a decision to make has a countdown"
    );
    assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
    save_screenshot(&browser.screenshot(), "table-clock", true);
}

/// A join that lost the seat to someone else shows the problem's detail; a player who resigns
/// from the table, after confirming, leaves the seat to a bot in the other browser's view.
#[test]
fn a_resignation_from_the_table_hands_the_seat_to_a_bot() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_resign", Some(&redis), &[]);
    let driver = Driver::start();
    let host = driver.browser("web_resign_host", WINDOW);
    let guest = driver.browser("web_resign_guest", WINDOW);
    let id = create_seated_in_lobby(
        &host,
        &roadie,
        "rock-the-world",
        &[
            SeatChoice::Player(Some("Ann")),
            SeatChoice::Open,
            SeatChoice::Open,
        ],
        None,
    );
    host.click("a.seat-link[data-seat=\"0\"]");
    host.wait_settled("the host's table", |b| b.body_data("viewer") == "0");
    open_lobby(&guest, &roadie, "rock-the-world");
    guest.find(&format!(
        "li.open-game[data-id=\"{id}\"] form.join[data-seat=\"2\"]"
    ));

    let taken = roadie.post(&format!("/v1/games/{id}/seats/2"), None, &json!({"name": "Cy"}));
    assert_eq!(taken.status, 201, "{taken:?}");
    join_from_lobby(&guest, &id, 2, "Bea");
    wait_for("the refused join's detail", Duration::from_secs(10), || {
        guest.error_line().is_some()
    });
    let again = roadie.post(&format!("/v1/games/{id}/seats/2"), None, &json!({"name": "Bea"}));
    again.assert_problem(409, "seat_taken");
    assert_eq!(
        guest.error_line().as_deref(),
        again.json["detail"].as_str(),
        "the lobby shows the problem's detail"
    );
    wait_for(
        "the open games without the taken seat",
        Duration::from_secs(10),
        || {
            guest
            .read(&format!(
                "document.querySelector('li.open-game[data-id=\"{id}\"] li[data-seat=\"2\"]')?.textContent"
            ))
            .as_str()
            == Some("Seat 2 · Cy")
        },
    );
    let errors = guest.console_errors();
    assert!(
        errors
            .iter()
            .all(|e| e.contains("/seats/2 - Failed to load resource") && e.contains("409")),
        "console errors besides the refused join: {errors:?}"
    );

    join_from_lobby(&guest, &id, 1, "Bea");
    guest.wait_settled("the guest's table", |b| b.body_data("viewer") == "1");
    host.wait_settled("the host to see the guest", |b| {
        seat_list(b)[1] == json!(["player", "Bea"])
    });

    guest.click("#resign-button");
    guest.find("#resign-yes");
    guest.click("#resign-no");
    guest.find("#resign-button");
    assert_eq!(
        roadie.get(&format!("/v1/games/{id}"), None).json["occupants"][1]["occupant"],
        "player",
        "keeping on changes nothing"
    );
    guest.click("#resign-button");
    guest.click("#resign-yes");
    guest.wait_settled("the guest's table as a spectator", |b| {
        b.body_data("viewer") == "spectator"
    });
    assert_eq!(
        roadie.get(&format!("/v1/games/{id}"), None).json["occupants"][1],
        json!({"seat": 1, "occupant": "bot", "level": "random"})
    );
    let resigned = json!([["player", "Ann"], ["bot", "random bot"], ["player", "Cy"]]);
    for browser in [&host, &guest] {
        browser.wait_settled("the resigned seat to show its bot", |b| seat_list(b) == resigned);
        assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
    }
    assert_eq!(
        guest.read("document.querySelectorAll('button.viewer[data-seat=\"1\"], #resign-button').length"),
        json!(0),
        "the resigned seat can no longer be played from this tab"
    );
    save_screenshot(&host.screenshot(), "table-resigned", false);
}

/// The lobby shows players' names as text isolated from what surrounds it (a `<bdi>`, so a
/// right-to-left name or one holding direction overrides cannot reorder `Seat N · `), without
/// direction controls or towers of combining marks, and at most 20 characters of each.
#[test]
fn the_lobby_shows_names_of_any_script_isolated_and_capped() {
    let roadie = Roadie::start("web_names", None, &[]);
    let names = [
        "مريم الخوارزمي",
        "\u{202e}desrever",
        &format!("Z{}algo", "\u{336}".repeat(20)),
        "Abcdefghijklmnopqrstuvwxyzabcdef",
    ];
    let mut seats: Vec<Value> = names.iter().map(|name| json!({ "name": name })).collect();
    seats.push(json!({"open": true}));
    let created = roadie.post(
        "/v1/games",
        None,
        &json!({"ruleset": "show-business", "seats": seats}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json["id"].as_str().expect("id");
    let driver = Driver::start();
    let browser = driver.browser("web_names", WINDOW);
    open_lobby(&browser, &roadie, "show-business");
    browser.find(&format!("li.open-game[data-id=\"{id}\"]"));
    let shown = browser.read(&format!(
        "[...document.querySelectorAll('li.open-game[data-id=\"{id}\"] .occupants > li')].slice(0, 4).map((li) => {{
            const name = li.querySelector('bdi.player-name');
            const graphemes = name && [...new Intl.Segmenter(undefined, {{granularity: 'grapheme'}}).segment(name.textContent)].length;
            return {{
                prefix: li.firstChild.textContent,
                title: name && name.title,
                text: name && name.textContent,
                graphemes,
                isolated: name && getComputedStyle(name).unicodeBidi,
            }};
        }})"
    ));
    for (seat, name) in names.iter().enumerate() {
        let row = &shown[seat];
        assert_eq!(row["prefix"], format!("Seat {seat} · "), "{row}");
        assert_eq!(row["title"], *name, "the whole name is the title: {row}");
        assert_eq!(row["isolated"], "isolate", "{row}");
        let text = row["text"].as_str().unwrap_or_default();
        assert!(
            !text.chars().any(
                |c| matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            ),
            "a direction control is shown: {row}"
        );
        assert!(
            row["graphemes"].as_u64().is_some_and(|n| n <= 21),
            "more than 20 characters shown: {row}"
        );
        let marks = text
            .chars()
            .filter(|c| ('\u{300}'..='\u{36f}').contains(c))
            .count();
        assert!(marks <= 3, "a tower of marks: {row}");
    }
    assert_eq!(shown[3]["text"], "Abcdefghijklmnopqrst…");
    assert_eq!(shown[1]["text"], "desrever");
    assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");
}

/// A person seated against the expert from the lobby asks for a hint at the table: the hinted action is marked among
/// the listed ones, the line says what an expert would play, and playing it goes through.
#[test]
fn the_hint_button_marks_what_an_expert_would_play() {
    let redis = Redis::start();
    let roadie = Roadie::start(
        "web_hint",
        Some(&redis),
        &[
            ("ROADIE_BOT_EXPERT_MS", "20"),
            ("ROADIE_BOT_EXPERT_ITERATIONS", "100"),
        ],
    );
    let driver = Driver::start();
    let browser = driver.browser("web_hint", WINDOW);
    let id = create_seated_in_lobby(
        &browser,
        &roadie,
        "show-business",
        &[SeatChoice::Player(Some("Ana")), SeatChoice::Bot("expert")],
        None,
    );
    let occupants = roadie.get(&format!("/v1/games/{id}"), None).json["occupants"].clone();
    assert_eq!(
        occupants[1]["level"], "expert",
        "the lobby seats an expert: {occupants}"
    );
    browser.click("a.seat-link[data-seat=\"0\"]");
    // Ana alone to act: the expert plays apart from requests, so while it may act too the table
    // changes under the test's clicks.
    browser.wait_settled("Ana's actions, Ana alone to act", |b| {
        b.body_data("viewer") == "0"
            && b.body_data("toAct") == "0"
            && b.body_data("actions").parse::<u64>().unwrap_or(0) > 0
    });
    browser.click("#hint-ask");
    browser.wait_settled("the hint", |b| {
        b.read("document.getElementById('hint-line')?.dataset.index ?? null") != Value::Null
    });
    let line = browser.read("document.getElementById('hint-line').textContent");
    let line = line.as_str().unwrap_or_default();
    assert!(
        line.starts_with("An expert would play"),
        "the hint line reads {line:?}"
    );
    assert!(!line.contains('{'), "the hint prints raw JSON: {line:?}");
    let index: u64 = browser
        .read("document.getElementById('hint-line').dataset.index")
        .as_str()
        .and_then(|i| i.parse().ok())
        .expect("the hinted action's index");
    let count: u64 = browser
        .body_data("actions")
        .parse()
        .expect("the count of actions");
    assert!(index < count, "hinted action {index} of {count}");
    assert_eq!(
        browser.read("document.querySelectorAll('#action-list .hinted').length"),
        json!(1),
        "exactly one action is marked"
    );
    let before = browser.body_data("settled");
    let button = format!("button.action[data-index=\"{index}\"]");
    if browser.read(&format!("document.querySelector('{button}') !== null")) == json!(true) {
        browser.click(&button);
    } else {
        browser.click(".action-choice.hinted button.action-go");
    }
    browser.wait_settled("the table after the hinted action", |b| {
        b.body_data("settled") != before
    });
    assert!(browser.error_line().is_none());
}

/// WebDriver's codes of the keys the replay viewer steps with.
const KEY_RIGHT: &str = "\u{E014}";
const KEY_END: &str = "\u{E010}";
const KEY_HOME: &str = "\u{E011}";

/// Presses `key` on the replay's slider (which keeps its step through WebDriver's clear, its
/// default value following it) and waits for the step `expect` to be drawn.
fn press_on_slider(browser: &Browser, key: &str, expect: usize) {
    browser.type_into("#step", key);
    browser.wait_settled(&format!("step {expect}"), |b| {
        b.body_data("step") == expect.to_string()
    });
}

/// The replay's score rows: `[seat, total shown, data-total, rank, highlighted]` each.
fn replay_scores(browser: &Browser) -> Vec<Value> {
    browser
        .read(
            "[...document.querySelectorAll('#outcome tr.score')].map((tr) => [Number(tr.dataset.seat), tr.querySelector('td.total').textContent, tr.dataset.total, Number(tr.dataset.rank), tr.classList.contains('winner')])",
        )
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The replay of `record` (a finished game's, at `/play/replay/{id}` already open) is stepped with
/// the arrow key, the Previous button and End: the counter and the acting seat follow each step,
/// step 0 shows no scores, the last shows the record's outcome, and every event line is a sentence.
fn step_through_replay(browser: &Browser, roadie: &Roadie, record: &Value) {
    let slug = record["ruleset"].as_str().expect("ruleset");
    let steps = record["steps"].as_array().expect("steps");
    assert!(steps.len() > 5, "{slug}: a game of {} steps", steps.len());
    browser.wait_settled(&format!("{slug}'s replay at step 0"), |b| {
        b.body_data("step") == "0"
    });
    let title = roadie.get(&format!("/v1/rulesets/{slug}"), None).json["title"].clone();
    let title = title.as_str().expect("a title");
    assert!(
        browser.text("#title").contains(title),
        "{slug}: the replay names its game: {}",
        browser.text("#title")
    );
    let seats = browser.read(
        "[...document.querySelectorAll('#seat-list li')].map((li) => [Number(li.dataset.seat), li.dataset.occupant, li.dataset.level, li.querySelector('.occupant').textContent])",
    );
    let expected: Vec<Value> = record["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| {
            let level = s["level"].as_str().unwrap_or_default();
            json!([s["seat"], s["occupant"], level, format!("{level} bot")])
        })
        .collect();
    assert_eq!(seats, json!(expected), "{slug}: the seats and their bots' levels");
    let of = |n: usize| format!("step {n} of {}", steps.len());
    assert_eq!(browser.text("#step-counter"), of(0));
    assert_eq!(
        browser.read("document.getElementById('outcome').hidden"),
        json!(true),
        "{slug}: step 0 shows no final scores"
    );
    assert!(
        replay_scores(browser).is_empty(),
        "{slug}: step 0 shows no score row"
    );
    assert_eq!(
        browser.read("document.querySelectorAll('#hand-list .seat-view').length"),
        json!(expected.len()),
        "{slug}: one view per seat"
    );

    for at in 1..=3 {
        press_on_slider(browser, KEY_RIGHT, at);
        assert_eq!(
            browser.text("#step-counter"),
            of(at),
            "{slug}: the arrow key steps on"
        );
        let seat = &steps[at - 1]["seat"];
        let shown = browser.read("document.getElementById('step-title').dataset.seat");
        let want = seat.as_u64().map(|s| s.to_string()).unwrap_or_default();
        assert_eq!(shown, json!(want), "{slug}: whose action step {at} was");
        if seat.is_u64() {
            let who = browser.text("#step-who");
            assert!(
                who.starts_with(&format!("Seat {want} · ")),
                "{slug}: step {at} names its seat: {who}"
            );
        }
        let lines = browser.read(
            "[...document.querySelectorAll('#events li[data-rendered]')].map((li) => [li.dataset.rendered, li.textContent])",
        );
        for line in lines.as_array().expect("event lines") {
            assert_eq!(
                line[0], "template",
                "{slug}: step {at}'s event {} has no sentence",
                line[1]
            );
            assert!(
                !line[1].as_str().unwrap_or_default().contains('{'),
                "{slug}: {}",
                line[1]
            );
        }
    }
    browser.click("#prev");
    browser.wait_settled("the step before", |b| b.body_data("step") == "2");
    assert_eq!(
        browser.text("#step-counter"),
        of(2),
        "{slug}: Previous steps back"
    );

    press_on_slider(browser, KEY_END, steps.len());
    assert_eq!(browser.text("#step-counter"), of(steps.len()));
    assert_eq!(browser.body_data("final"), "true");
    let outcome = &record["outcome"];
    let winners = outcome["winners"].as_array().expect("winners");
    let mut shown = replay_scores(browser);
    shown.sort_by_key(|row| row[0].as_u64());
    let mut wanted: Vec<Value> = outcome["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| {
            let total = s["total"].to_string();
            json!([s["seat"], total, total, s["rank"], winners.contains(&s["seat"])])
        })
        .collect();
    wanted.sort_by_key(|row| row[0].as_u64());
    assert_eq!(shown, wanted, "{slug}: the final scores are the record's outcome");

    press_on_slider(browser, KEY_HOME, 0);
    assert!(
        replay_scores(browser).is_empty(),
        "{slug}: back at step 0, no scores"
    );
}

/// The replay viewer at `/play/replay/{id}`: a game of bots alone of every ruleset, finished
/// inside its creation (one created from the lobby, whose Replay link opens it), is stepped
/// through to the record's final scores; a record file opens at `/play/replay/`; the finished
/// table links its replay; a running game's replay says it is not over. A Show Business replay is
/// photographed at mid-game.
#[test]
fn the_replay_viewer_steps_through_each_rulesets_bot_game_to_its_scores() {
    let redis = Redis::start();
    let roadie = Roadie::start("web_replay", Some(&redis), &[]);
    let driver = Driver::start();
    let browser = driver.browser("web_replay", WINDOW);
    let mut show_business = None;
    for (slug, min, _) in crate::support::rulesets(&roadie) {
        let levels: Vec<&str> = (0..min)
            .map(|i| if i % 2 == 0 { "random" } else { "greedy" })
            .collect();
        let id = if slug == "rock-the-world" {
            let choices: Vec<SeatChoice> = levels.iter().map(|l| SeatChoice::Bot(l)).collect();
            let id = create_seated_in_lobby(&browser, &roadie, &slug, &choices, None);
            browser.click("#created a.replay-link");
            id
        } else {
            let seats: Vec<Value> = levels.iter().map(|l| json!({ "bot": l })).collect();
            let created = roadie.post("/v1/games", None, &json!({"ruleset": slug, "seats": seats}));
            assert_eq!(created.status, 201, "{}", created.body);
            let id = created.json["id"].as_str().expect("id").to_owned();
            browser.open(&roadie.url(&format!("/play/replay/{id}")));
            id
        };
        let record = roadie.get(&format!("/v1/games/{id}/record"), None);
        assert_eq!(record.status, 200, "{slug}: {}", record.body);
        step_through_replay(&browser, &roadie, &record.json);
        assert_eq!(
            browser.read("location.pathname"),
            json!(format!("/play/replay/{id}")),
            "{slug}"
        );
        assert_eq!(
            browser.console_errors(),
            Vec::<String>::new(),
            "{slug}: console errors"
        );
        if slug == "show-business" {
            show_business = Some((id, record.json));
        }
    }
    let (id, record) = show_business.expect("a Show Business game");
    let steps = record["steps"].as_array().expect("steps").len();

    // Mid-game, every seat's hand is shown beside the spectator's table.
    let middle = steps / 2;
    browser.open(&roadie.url(&format!("/play/replay/{id}#step={middle}")));
    browser.wait_settled("the replay at mid-game", |b| {
        b.body_data("step") == middle.to_string()
    });
    assert_eq!(
        browser.read("document.querySelectorAll('#board .sb').length"),
        json!(1),
        "the spectator's view is drawn as the table draws it"
    );
    save_screenshot(&browser.screenshot(), "replay", true);

    // The finished game's table links its replay.
    browser.open(&roadie.url(&format!("/play/{id}")));
    browser.wait_settled("the finished table", |b| b.body_data("status") == "finished");
    let link = browser.read("document.getElementById('replay-link')?.getAttribute('href') ?? null");
    assert_eq!(
        link,
        json!(format!("/play/replay/{id}")),
        "the table links its replay"
    );

    // A record file opens at /play/replay/.
    let file = crate::support::scratch("web_replay_file").join("record.json");
    std::fs::write(&file, serde_json::to_vec(&record).expect("JSON")).expect("write the record");
    browser.open(&roadie.url("/play/replay/"));
    browser.wait_settled("the file page", |b| b.body_data("ready") == "true");
    assert_eq!(
        browser.read("document.getElementById('viewer').hidden"),
        json!(true)
    );
    browser.type_into("#record-file", file.to_str().expect("a path"));
    browser.wait_settled("the file's replay at step 0", |b| {
        b.body_data("file") == "record.json" && b.body_data("step") == "0"
    });
    assert_eq!(browser.text("#step-counter"), format!("step 0 of {steps}"));
    assert!(browser.text("#title").contains("Show Business"));
    press_on_slider(&browser, KEY_RIGHT, 1);
    assert_eq!(browser.console_errors(), Vec::<String>::new(), "console errors");

    // A game still being played has no replay yet: the page says so and links its table.
    let running = roadie.post(
        "/v1/games",
        None,
        &json!({"ruleset": "show-business", "seats": [{"name": "Ann"}, {"bot": "random"}]}),
    );
    assert_eq!(running.status, 201, "{}", running.body);
    let running = running.json["id"].as_str().expect("id");
    browser.open(&roadie.url(&format!("/play/replay/{running}")));
    wait_for("the refusal", Duration::from_secs(20), || {
        browser.error_line().is_some()
    });
    let detail = roadie.get(&format!("/v1/games/{running}/record"), None).json["detail"].clone();
    let shown = browser.error_line().unwrap_or_default();
    assert!(
        shown.contains(detail.as_str().expect("a detail")),
        "the page shows {shown:?}"
    );
    assert_eq!(
        browser.read("document.getElementById('table-link')?.getAttribute('href') ?? null"),
        json!(format!("/play/{running}"))
    );
}
