//! Request examples that succeed when executed in order, one per ruleset: a seeded create, then
//! the post of the first action that the created game lists for its first seat to act. Swagger
//! UI prefills them; they are taken from the engine, so they stay true when a game changes.

use roadie_engine::RULESETS;
use roadie_engine::registry::AnyGame;
use serde_json::{Value, json};
use utoipa::Modify;
use utoipa::openapi::example::Example;
use utoipa::openapi::{OpenApi as Document, RefOr};

/// The seed of every example game.
const SEED: u64 = 42;

/// Puts the examples on `POST /v1/games` and `POST /v1/games/{id}/actions`, named by ruleset.
pub struct Examples;

impl Modify for Examples {
    fn modify(&self, doc: &mut Document) {
        for ruleset in RULESETS {
            let seats = *ruleset.seats.start();
            let Ok((game, _)) = AnyGame::setup(ruleset.slug, None, seats, SEED) else {
                continue;
            };
            let Some(&seat) = game.to_act().first() else {
                continue;
            };
            let Some(action) = game.legal_action_list(seat).into_iter().next() else {
                continue;
            };
            let Ok(action) = serde_json::from_str::<Value>(action.get()) else {
                continue;
            };
            let create = Example::builder()
                .summary(format!("{}: {seats} seats, seed {SEED}", ruleset.title))
                .value(Some(
                    json!({"ruleset": ruleset.slug, "seats": seats, "seed": SEED}),
                ))
                .build();
            let post = Example::builder()
                .summary(format!("{}: the first action of seat {seat}", ruleset.title))
                .description(format!(
                    "The first action `GET /v1/games/{{id}}/actions` lists for seat {seat} of the game \
                     that the `{slug}` example of `POST /v1/games` creates; authorize with that \
                     game's `seats[{seat}].token`.",
                    slug = ruleset.slug
                ))
                .value(Some(json!({ "action": action })))
                .build();
            add(doc, "/v1/games", ruleset.slug, create);
            add(doc, "/v1/games/{id}/actions", ruleset.slug, post);
        }
    }
}

fn add(doc: &mut Document, path: &str, name: &str, example: Example) {
    let body = doc
        .paths
        .paths
        .get_mut(path)
        .and_then(|item| item.post.as_mut())
        .and_then(|operation| operation.request_body.as_mut());
    let Some(RefOr::T(body)) = body else {
        return;
    };
    if let Some(RefOr::T(content)) = body.content.get_mut("application/json") {
        content.examples.insert(name.to_owned(), RefOr::T(example));
    }
}
