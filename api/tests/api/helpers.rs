//! `TestApp`: the service built in this process on port 0, with the in-memory store, and a
//! client for it.

use std::collections::HashMap;
use std::net::TcpListener;

use roadie_api::config::Config;
use roadie_api::startup::Application;
use serde_json::{Value, json};

/// The secret the in-process services sign with.
pub const SECRET: &str = "in-process-test-secret-0123456789abcdef";

/// A running service and a client.
pub struct TestApp {
    pub base: String,
    pub http: reqwest::Client,
    pub port: u16,
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

    /// The problem's code, after checking that this is a problem of its code's status.
    pub fn code(&self) -> String {
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "not a problem: {} {}",
            self.status,
            self.body
        );
        assert_eq!(self.json["status"], self.status, "{}", self.body);
        self.json["code"].as_str().expect("a code").to_owned()
    }
}

/// A created game.
pub struct Game {
    pub id: String,
    pub tokens: Vec<String>,
    pub host: String,
}

impl TestApp {
    /// Builds and starts the service with these settings over the tests' defaults.
    pub async fn spawn(settings: &[(&str, &str)]) -> Self {
        let mut env: HashMap<String, String> = [
            ("ROADIE_JWT_SECRET", SECRET),
            ("ROADIE_WORKERS", "1"),
            ("ROADIE_CREATE_RATE", "0"),
            ("ROADIE_TOKEN_RATE", "0"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        env.extend(settings.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        let config = Config::from_lookup(|name| env.get(name).cloned()).expect("a valid configuration");
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let app = Application::build_with_listener(config, listener)
            .await
            .expect("the service builds");
        let port = app.port();
        actix_web::rt::spawn(app.run_until_stopped());
        Self {
            base: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
            port,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Reply {
        let response = request.send().await.expect("an answer");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.text().await.unwrap_or_default();
        let json = serde_json::from_str(&body).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
            json,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let mut request = self.http.get(self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        let mut request = self.http.post(self.url(path)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    pub async fn create(&self, ruleset: &str, seats: usize, seed: u64) -> Game {
        let reply = self
            .post(
                "/v1/games",
                None,
                &json!({"ruleset": ruleset, "seats": seats, "seed": seed}),
            )
            .await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        Game {
            id: reply.json["id"].as_str().expect("id").to_owned(),
            tokens: reply.json["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .map(|s| s["token"].as_str().expect("token").to_owned())
                .collect(),
            host: reply.json["host_token"].as_str().expect("host token").to_owned(),
        }
    }

    /// The seat to act and its legal actions, or `None` once the game is over.
    pub async fn turn(&self, game: &Game) -> Option<(usize, Vec<Value>)> {
        let state = self.get(&format!("/v1/games/{}", game.id), None).await;
        assert_eq!(state.status, 200, "{}", state.body);
        let seat = state.json["to_act"][0].as_u64()? as usize;
        let actions = self
            .get(
                &format!("/v1/games/{}/actions", game.id),
                Some(&game.tokens[seat]),
            )
            .await;
        assert_eq!(actions.status, 200, "{}", actions.body);
        Some((
            seat,
            actions.json["actions"].as_array().cloned().unwrap_or_default(),
        ))
    }

    pub async fn act(&self, game: &Game, seat: usize, action: &Value) -> Reply {
        self.post(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
            &json!({ "action": action }),
        )
        .await
    }
}
