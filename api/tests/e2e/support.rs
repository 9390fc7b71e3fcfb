//! The test harness: a throwaway Redis, the real `roadie` binary, and a typed HTTP client.
//! The load generator's test (`tests/tests/loadtest.rs`) shares it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, RequestBuilder, Response};
use serde_json::{Value, json};

/// Scratch space under `target/`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Fails with what to do unless `binary` (from Debian's `package`) is on the machine:
/// `scripts/test` installs every package the tests start.
pub fn ensure_installed(binary: &str, package: &str) {
    assert!(
        Path::new(binary).exists(),
        "{binary} is missing: run scripts/test, which installs {package}"
    );
}

/// The Python of `target/venv`, where `scripts/test` installs the pinned tools of
/// `scripts/requirements.txt`.
pub fn python() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/venv/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run scripts/test, which installs scripts/requirements.txt there",
        python.display()
    );
    python
}

/// A `redis-server` of our own on a free loopback port, stopped when dropped.
pub struct Redis {
    pub port: u16,
    args: Vec<String>,
    child: Option<Child>,
}

impl Redis {
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// A server with extra `redis-server` arguments.
    pub fn start_with(args: &[String]) -> Self {
        ensure_installed("/usr/bin/redis-server", "redis-server");
        let mut redis = Redis {
            port: free_port(),
            args: args.to_vec(),
            child: None,
        };
        redis.resume();
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Starts (again) on the same port.
    pub fn resume(&mut self) {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .args(&self.args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.answers() {
            assert!(Instant::now() < deadline, "redis-server did not answer");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Runs one command with `redis-cli` and returns what it printed.
    pub fn cli(&self, args: &[&str]) -> String {
        let out = Command::new("redis-cli")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args(args)
            .output()
            .expect("run redis-cli");
        assert!(out.status.success(), "redis-cli {args:?} failed");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// The entries in every shard of a sharded index, `roadie:{<index>:NN}<suffix>` (see
    /// [`due_keys`]), summed.
    pub fn zcard_shards(&self, index: &str, suffix: &str) -> u64 {
        due_keys(index, suffix)
            .iter()
            .map(|key| self.cli(&["ZCARD", key]).parse::<u64>().expect("a count"))
            .sum()
    }

    /// Stops it with SIGKILL: what it did not save is lost.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn answers(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
        let mut buf = [0u8; 7];
        stream.write_all(b"PING\r\n").is_ok() && stream.read_exact(&mut buf).is_ok() && &buf == b"+PONG\r\n"
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The `roadie` binary: the one cargo built for this test, or, for tests of another package of
/// the workspace, the one `cargo test --workspace` built beside them.
/// Every shard's key of a sharded index of due work (`bots`, `archive`) or of clocks (`clocks`):
/// `roadie:{<index>:NN}<suffix>`.
pub fn due_keys(index: &str, suffix: &str) -> Vec<String> {
    (0..roadie_api::store::DEFAULT_DUE_SHARDS)
        .map(|shard| format!("roadie:{{{index}:{shard:02}}}{suffix}"))
        .collect()
}

/// Game `id`'s key in a sharded index (see [`due_keys`]).
pub fn due_key(index: &str, suffix: &str, id: &str) -> String {
    format!(
        "roadie:{{{index}:{:02}}}{suffix}",
        roadie_api::store::due_shard(id)
    )
}

pub fn roadie_binary() -> PathBuf {
    if let Some(path) = option_env!("CARGO_BIN_EXE_roadie") {
        return PathBuf::from(path);
    }
    // This test binary is target/<profile>/deps/<name>-<hash>.
    let exe = std::env::current_exe().expect("current exe");
    let binary = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .join(format!("roadie{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: run the tests with `cargo test --workspace`",
        binary.display()
    );
    binary
}

/// A running `roadie` process, stopped when dropped.
pub struct Roadie {
    pub base: String,
    env: Vec<(String, String)>,
    child: Mutex<Option<Child>>,
    log: PathBuf,
    pub http: Client,
}

/// The JWT secret the tests' servers sign with.
pub const SECRET: &str = "e2e-test-secret-not-for-production";

impl Roadie {
    /// Starts the binary with Redis at `redis` (or the in-memory store) and extra variables.
    pub fn start(name: &str, redis: Option<&Redis>, extra: &[(&str, &str)]) -> Self {
        let port = free_port();
        let mut env = vec![
            ("ROADIE_ADDR".to_owned(), format!("127.0.0.1:{port}")),
            ("ROADIE_JWT_SECRET".to_owned(), SECRET.to_owned()),
            ("ROADIE_WORKERS".to_owned(), "2".to_owned()),
            ("ROADIE_STORE_TIMEOUT_MS".to_owned(), "2000".to_owned()),
            // The tests play many games fast from one address; the limits have tests of their own.
            ("ROADIE_CREATE_RATE".to_owned(), "0".to_owned()),
            ("ROADIE_TOKEN_RATE".to_owned(), "0".to_owned()),
            ("RUST_LOG".to_owned(), "info".to_owned()),
        ];
        if let Some(redis) = redis {
            env.push(("ROADIE_REDIS_URL".to_owned(), redis.url()));
        }
        for (k, v) in extra {
            env.retain(|(key, _)| key != k);
            env.push(((*k).to_owned(), (*v).to_owned()));
        }
        let roadie = Roadie {
            base: format!("http://127.0.0.1:{port}"),
            env,
            child: Mutex::new(None),
            log: scratch(name).join("roadie.log"),
            // An idle connection is dropped well before the server's 5 s keep-alive closes it,
            // so a request never goes out on a connection the server is closing at that moment.
            http: Client::builder()
                .timeout(Duration::from_secs(30))
                .pool_idle_timeout(Duration::from_secs(2))
                .build()
                .expect("client"),
        };
        roadie.launch();
        roadie
    }

    fn child(&self) -> std::sync::MutexGuard<'_, Option<Child>> {
        self.child.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn launch(&self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("log file");
        let child = Command::new(roadie_binary())
            .env_remove("ROADIE_REDIS_URL")
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start roadie");
        *self.child() = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(r) = self.http.get(self.url("/healthz")).send()
                && r.status().is_success()
            {
                return;
            }
            let exited = self.child().as_mut().and_then(|c| c.try_wait().ok().flatten());
            if let Some(status) = exited {
                panic!("roadie exited with {status}; log:\n{}", self.log_text());
            }
            assert!(
                Instant::now() < deadline,
                "roadie did not answer; log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Stops the process gracefully (SIGTERM) and starts it again with the same settings.
    pub fn restart(&self) {
        self.stop();
        self.launch();
    }

    /// The process's id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child().as_ref().map(Child::id)
    }

    /// SIGKILL: the process dies with whatever it had in flight.
    pub fn kill(&self) {
        if let Some(mut child) = self.child().take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, then waits for a clean exit; answers how long the process took to exit.
    pub fn stop(&self) -> Duration {
        let taken = self.child().take();
        let sent = Instant::now();
        if let Some(mut child) = taken {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(15);
            loop {
                match child.try_wait() {
                    Ok(Some(status)) => {
                        assert!(status.success(), "roadie did not exit cleanly: {status}");
                        return sent.elapsed();
                    }
                    Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
                    _ => {
                        let _ = child.kill();
                        let _ = child.wait();
                        panic!("roadie did not stop on SIGTERM");
                    }
                }
            }
        }
        sent.elapsed()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str, token: Option<&str>) -> Reply {
        send(with_token(self.http.get(self.url(path)), token))
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        send(with_token(self.http.post(self.url(path)), token).json(body))
    }

    pub fn request(&self, builder: RequestBuilder) -> Reply {
        send(builder)
    }

    /// Creates a game; panics unless it was created.
    pub fn create(&self, ruleset: &str, seats: usize, seed: Option<u64>) -> Created {
        let mut body = json!({"ruleset": ruleset, "seats": seats});
        if let Some(seed) = seed {
            body["seed"] = json!(seed);
        }
        let reply = self.post("/v1/games", None, &body);
        assert_eq!(reply.status, 201, "create failed: {}", reply.body);
        Created::from(&reply.json)
    }

    /// The seat's legal actions.
    pub fn actions(&self, game: &Created, seat: usize) -> Vec<Value> {
        let reply = self.get(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json["actions"].as_array().cloned().unwrap_or_default()
    }

    /// Posts an action for the seat.
    pub fn act(&self, game: &Created, seat: usize, action: &Value) -> Reply {
        self.post(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
            &json!({ "action": action }),
        )
    }

    /// The game as the seat (or a spectator) sees it.
    pub fn game(&self, game: &Created, seat: Option<usize>) -> Reply {
        self.get(
            &format!("/v1/games/{}", game.id),
            seat.map(|s| game.tokens[s].as_str()),
        )
    }

    /// The seat's (or a spectator's) whole event log, read page by page.
    pub fn events(&self, game: &Created, seat: Option<usize>) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after = 0;
        loop {
            let path = format!("/v1/games/{}/events?after={after}", game.id);
            let reply = self.get(&path, seat.map(|s| game.tokens[s].as_str()));
            assert_eq!(reply.status, 200, "{}", reply.body);
            events.extend(reply.json["events"].as_array().cloned().unwrap_or_default());
            let next = reply.json["next_after"].as_u64().expect("next_after");
            if next == after {
                return events;
            }
            after = next;
        }
    }
}

impl Drop for Roadie {
    fn drop(&mut self) {
        if let Some(mut child) = self.child().take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn with_token(builder: RequestBuilder, token: Option<&str>) -> RequestBuilder {
    match token {
        Some(token) => builder.bearer_auth(token),
        None => builder,
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
    pub json: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts a problem+json error with this status and code.
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(
            self.status, status,
            "expected {status} {code}, got: {}",
            self.body
        );
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "not a problem: {}",
            self.body
        );
        assert_eq!(self.json["code"], code, "{}", self.body);
        assert_eq!(self.json["status"], status, "{}", self.body);
        for field in ["type", "title", "detail"] {
            assert!(
                self.json[field].is_string(),
                "problem without {field}: {}",
                self.body
            );
        }
    }
}

pub fn send(builder: RequestBuilder) -> Reply {
    let response: Response = builder.send().expect("HTTP request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.text().unwrap_or_default();
    let json = serde_json::from_str(&body).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        json,
    }
}

/// What `POST /v1/games` returned.
#[derive(Clone, Debug)]
pub struct Created {
    pub id: String,
    pub tokens: Vec<String>,
    pub host_token: String,
    pub seed_commitment: String,
    pub revision: String,
}

impl From<&Value> for Created {
    fn from(v: &Value) -> Self {
        let tokens = v["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .enumerate()
            .map(|(i, s)| {
                assert_eq!(s["seat"], i);
                s["token"].as_str().expect("token").to_owned()
            })
            .collect();
        Created {
            id: v["id"].as_str().expect("id").to_owned(),
            tokens,
            host_token: v["host_token"].as_str().expect("host token").to_owned(),
            seed_commitment: v["seed_commitment"].as_str().expect("commitment").to_owned(),
            revision: v["revision"].as_str().expect("revision").to_owned(),
        }
    }
}

/// Every ruleset the server hosts, with its seat range.
pub fn rulesets(roadie: &Roadie) -> Vec<(String, usize, usize)> {
    let reply = roadie.get("/v1/rulesets", None);
    assert_eq!(reply.status, 200);
    reply.json["rulesets"]
        .as_array()
        .expect("rulesets")
        .iter()
        .map(|r| {
            (
                r["slug"].as_str().expect("slug").to_owned(),
                r["seats"]["min"].as_u64().expect("min") as usize,
                r["seats"]["max"].as_u64().expect("max") as usize,
            )
        })
        .collect()
}
