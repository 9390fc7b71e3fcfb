//! Headless Chromium driven over the WebDriver protocol by Debian's `/usr/bin/chromedriver`: the
//! one client the browser tests (`docs.rs`'s Swagger UI, `web.rs`'s table) share.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use reqwest::blocking::Client;
use serde_json::{Value, json};

use crate::support::{ensure_installed, free_port, scratch};

/// How long [`Browser::find`] waits for an element to appear.
const FIND_WITHIN: Duration = Duration::from_secs(20);

/// `chromedriver` on a free port, stopped when dropped.
pub struct Driver {
    child: Child,
    base: String,
    http: Client,
}

impl Driver {
    /// Starts chromedriver (installing Chromium and its driver when missing) and waits until it
    /// answers.
    pub fn start() -> Self {
        ensure_installed("/usr/bin/chromium", "chromium");
        ensure_installed("/usr/bin/chromedriver", "chromium-driver");
        let port = free_port();
        let child = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            http: Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("client"),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while !driver
            .http
            .get(format!("{}/status", driver.base))
            .send()
            .is_ok_and(|r| r.status().is_success())
        {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }

    /// One WebDriver command; panics when the driver reports an error.
    fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let reply: Value = request
            .send()
            .and_then(|r| r.json())
            .unwrap_or_else(|e| panic!("WebDriver {path}: {e}"));
        assert!(
            reply["value"]["error"].is_null(),
            "WebDriver {path}: {}",
            reply["value"]
        );
        reply["value"].clone()
    }

    /// A fresh Chromium of `width` x `height` pixels with its own profile under `target/` (so its
    /// own `sessionStorage`), named `name`, recording the console.
    pub fn browser(&self, name: &str, (width, height): (u32, u32)) -> Browser<'_> {
        let profile = scratch(&format!("chromium_{name}"));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let session = self.call(reqwest::Method::POST, "/session", Some(caps));
        Browser {
            driver: self,
            session: session["sessionId"]
                .as_str()
                .unwrap_or_else(|| panic!("no session: {session}"))
                .to_owned(),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session, closed when dropped.
pub struct Browser<'a> {
    driver: &'a Driver,
    session: String,
}

impl Browser<'_> {
    fn post(&self, path: &str, body: Value) -> Value {
        self.driver.call(
            reqwest::Method::POST,
            &format!("/session/{}{path}", self.session),
            Some(body),
        )
    }

    fn get(&self, path: &str) -> Value {
        self.driver.call(
            reqwest::Method::GET,
            &format!("/session/{}{path}", self.session),
            None,
        )
    }

    /// Loads `url`.
    pub fn open(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    /// The first element `selector` (XPath when it starts with `//`, else CSS) selects, waiting
    /// up to [`FIND_WITHIN`] for it to appear.
    pub fn find(&self, selector: &str) -> String {
        let using = if selector.starts_with("//") {
            "xpath"
        } else {
            "css selector"
        };
        let deadline = Instant::now() + FIND_WITHIN;
        loop {
            let found = self.post("/elements", json!({"using": using, "value": selector}));
            if let Some(element) = found
                .as_array()
                .and_then(|all| all.first())
                .and_then(Value::as_object)
                .and_then(|e| e.values().next())
                .and_then(Value::as_str)
            {
                return element.to_owned();
            }
            assert!(Instant::now() < deadline, "no element {selector} in the page");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the element `selector` selects.
    pub fn click(&self, selector: &str) {
        let element = self.find(selector);
        self.post(&format!("/element/{element}/click"), json!({}));
    }

    /// Clears the field `selector` selects and types `text` into it.
    pub fn type_into(&self, selector: &str, text: &str) {
        let element = self.find(selector);
        self.post(&format!("/element/{element}/clear"), json!({}));
        self.post(&format!("/element/{element}/value"), json!({ "text": text }));
    }

    /// The rendered text of the element `selector` selects.
    pub fn text(&self, selector: &str) -> String {
        let element = self.find(selector);
        self.get(&format!("/element/{element}/text"))
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Reads the page (never changes it): the value of a JavaScript expression.
    pub fn read(&self, expression: &str) -> Value {
        self.post(
            "/execute/sync",
            json!({"script": format!("return {expression};"), "args": []}),
        )
    }

    /// Runs `script` in the page, with `args`, and returns what it passes to its callback (the
    /// last of its `arguments`): for scripts that wait on the network.
    pub fn run_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.post("/execute/async", json!({ "script": script, "args": args }))
    }

    /// The window as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let png = self.get("/screenshot");
        base64::engine::general_purpose::STANDARD
            .decode(png.as_str().expect("base64 PNG"))
            .expect("PNG")
    }

    /// Sets the window's size.
    pub fn resize(&self, width: u32, height: u32) {
        self.post("/window/rect", json!({"width": width, "height": height}));
    }

    /// The console's severe entries since the last call.
    pub fn console_errors(&self) -> Vec<String> {
        let entries = self.post("/se/log", json!({"type": "browser"}));
        entries
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["level"] == "SEVERE")
            .filter_map(|e| e["message"].as_str())
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Browser<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .http
            .delete(format!("{}/session/{}", self.driver.base, self.session))
            .send();
    }
}
