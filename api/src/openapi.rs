//! The OpenAPI document, generated from the code.
//!
//! Paths and wire types come from the utoipa annotations. Each ruleset brings its own named
//! schemas (options, actions, events, views); the wire model's placeholders [`AnyAction`],
//! [`AnyEvent`], [`AnyView`] and [`AnyOptions`] are `oneOf` them. [`RulesetDocs`] adds every ruleset's
//! schemas, its phase machine as the `x-roadie-rulesets` extension, the discriminators utoipa
//! leaves out of tagged enums, and the bearer security schemes.

use roadie_engine::RULESETS;
use serde_json::json;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{Discriminator, Schema};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{Components, OpenApi as Document, RefOr};
use utoipa::{Modify, OpenApi};

use crate::model::{AnyAction, AnyEvent, AnyOptions, AnyView};
use crate::{error, model, routes};

/// The document's skeleton; [`document`] gives the finished one.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Roadie",
        description = "A rules server for turn-based board games: create a game, see what your seat may do, do it.\n\n\
            Each seat has its own bearer token (`Authorization: Bearer <token>`), returned when the game is created. \
            Errors are `application/problem+json` with a stable `code`.\n\n\
            Auditable randomness: a game publishes `seed_commitment` = hex(SHA-256(`<seed_salt>:<seed>`)) at creation; \
            when it ends, the seed and its salt are revealed and every event (shuffles and rolls included) becomes public."
    ),
    components(
        schemas(
        AnyAction, AnyEvent, AnyView, AnyOptions, error::Problem, error::Code, model::CreateGame, model::CreatedGame,
        model::GameState, model::LegalActions, model::PostAction, model::ActionResult, model::EventLog,
        model::RulesetList, model::RulesetDetail, model::Health,
        ),
        responses(
            error::BadRequest, error::Unauthorized, error::Forbidden, error::NotFound,
            error::RequestTimeout, error::Conflict, error::PreconditionFailed, error::PayloadTooLarge,
            error::Unprocessable, error::TooManyRequests, error::ServiceUnavailable,
        ),
    ),
    tags(
        (name = "games", description = "Create games and play them, one seat token each"),
        (name = "rulesets", description = "The games Roadie hosts, their options and phase machines"),
        (name = "operations", description = "Health, readiness and metrics"),
    ),
    modifiers(&RulesetDocs),
)]
pub struct ApiDoc;

/// Adds what the derive cannot: ruleset schemas, phase machines, discriminators, security.
pub struct RulesetDocs;

impl Modify for RulesetDocs {
    fn modify(&self, doc: &mut Document) {
        doc.info.description = Some(format!(
            "{}\n\n{}",
            doc.info.description.take().unwrap_or_default(),
            include_str!("randomness.md")
        ));
        let components = doc.components.get_or_insert_with(Components::new);
        let mut rulesets = serde_json::Map::new();
        for ruleset in RULESETS {
            let schemas = (ruleset.schemas)();
            for (name, schema) in schemas.all {
                components.schemas.entry(name).or_insert(schema);
            }
            let machine = (ruleset.machine)();
            rulesets.insert(
                ruleset.slug.to_owned(),
                json!({
                    "title": ruleset.title,
                    "seats": {"min": ruleset.seats.start(), "max": ruleset.seats.end()},
                    "schemas": {
                        "options": schemas.options,
                        "action": schemas.action,
                        "event": schemas.event,
                        "view": schemas.view,
                    },
                    "default_options": (ruleset.default_options)(),
                    "machine": machine,
                    "mermaid": machine.mermaid(),
                }),
            );
        }
        add_discriminators(components);
        components.add_security_scheme(
            "seat_token",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("A seat's token from `POST /v1/games`"))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "host_token",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("The game's `host_token` from `POST /v1/games`"))
                    .build(),
            ),
        );
        doc.extensions
            .get_or_insert_with(Extensions::default)
            .insert("x-roadie-rulesets".into(), serde_json::Value::Object(rulesets));
    }
}

/// The tag (property name and value) a variant schema carries: a required property whose only
/// allowed value is one string, as serde's `#[serde(tag = ...)]` produces.
fn tag_of(schema: &RefOr<Schema>, components: &Components, depth: usize) -> Option<(String, String)> {
    if depth > 4 {
        return None;
    }
    match schema {
        RefOr::Ref(r) => {
            let name = r.ref_location.strip_prefix("#/components/schemas/")?;
            tag_of(components.schemas.get(name)?, components, depth + 1)
        }
        RefOr::T(Schema::Object(object)) => object.properties.iter().find_map(|(name, property)| {
            let RefOr::T(Schema::Object(p)) = property else {
                return None;
            };
            match p.enum_values.as_deref() {
                Some([serde_json::Value::String(value)]) if object.required.contains(name) => {
                    Some((name.clone(), value.clone()))
                }
                _ => None,
            }
        }),
        RefOr::T(Schema::AllOf(all)) => all
            .items
            .iter()
            .find_map(|item| tag_of(item, components, depth + 1)),
        _ => None,
    }
}

/// Gives every `oneOf` whose variants all carry the same tag property a discriminator on it
/// (with a mapping when the variants are references).
fn add_discriminators(components: &mut Components) {
    let mut found = Vec::new();
    for (name, schema) in &components.schemas {
        let RefOr::T(Schema::OneOf(one)) = schema else {
            continue;
        };
        if one.discriminator.is_some() || one.items.is_empty() {
            continue;
        }
        let tags: Option<Vec<(String, String)>> =
            one.items.iter().map(|item| tag_of(item, components, 0)).collect();
        let Some(tags) = tags else { continue };
        let property = &tags[0].0;
        if tags.iter().any(|(p, _)| p != property) {
            continue;
        }
        let mut discriminator = Discriminator::new(property.clone());
        for (item, (_, value)) in one.items.iter().zip(&tags) {
            if let RefOr::Ref(r) = item {
                discriminator
                    .mapping
                    .insert(value.clone(), r.ref_location.clone());
            }
        }
        found.push((name.clone(), discriminator));
    }
    for (name, discriminator) in found {
        if let Some(RefOr::T(Schema::OneOf(one))) = components.schemas.get_mut(&name) {
            one.discriminator = Some(discriminator);
        }
    }
}

/// The finished document: the skeleton with the operations of every mounted route.
pub fn document() -> Document {
    let mut doc = ApiDoc::openapi();
    doc.merge(routes::Documented::openapi());
    match serde_json::to_value(&doc) {
        Ok(mut value) => {
            name_seats(&mut value);
            serde_json::from_value(value).unwrap_or(doc)
        }
        Err(_) => doc,
    }
}

/// The engine's seat numbers are `Seat`, an alias of `usize` that the derive can only see
/// through: it names their schema `usize`. The document calls it `Seat`, and says what it is.
fn name_seats(value: &mut serde_json::Value) {
    const FROM: &str = "#/components/schemas/usize";
    const TO: &str = "#/components/schemas/Seat";
    match value {
        serde_json::Value::Object(map) => {
            if map.get("$ref").and_then(|r| r.as_str()) == Some(FROM) {
                map.insert("$ref".into(), TO.into());
            }
            if let Some(serde_json::Value::Object(schemas)) =
                map.get_mut("components").and_then(|c| c.get_mut("schemas"))
                && schemas.remove("usize").is_some()
            {
                schemas.insert(
                    "Seat".into(),
                    json!({"type": "integer", "minimum": 0, "description": "A seat of the game, numbered from 0."}),
                );
            }
            map.values_mut().for_each(name_seats);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(name_seats),
        _ => {}
    }
}

/// The document as pretty JSON with stable key order (through `serde_json::Value`), as
/// committed in `openapi/openapi.json`.
pub fn document_json() -> String {
    let value = serde_json::to_value(document()).unwrap_or(serde_json::Value::Null);
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");

    /// Regenerate with `ROADIE_UPDATE_OPENAPI=1 cargo test -p roadie-api openapi` (or
    /// `cargo run --bin roadie -- openapi > openapi/openapi.json`).
    #[test]
    fn the_committed_openapi_document_is_current() {
        let current = document_json();
        if std::env::var_os("ROADIE_UPDATE_OPENAPI").is_some() {
            std::fs::write(COMMITTED, &current).expect("write openapi/openapi.json");
        }
        let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
        assert!(
            committed == current,
            "openapi/openapi.json is stale: run `ROADIE_UPDATE_OPENAPI=1 cargo test -p roadie-api openapi`"
        );
    }

    #[test]
    fn every_ruleset_has_its_schemas_and_machine_in_the_document() {
        let value = serde_json::to_value(document()).expect("json");
        for ruleset in RULESETS {
            let schemas = (ruleset.schemas)();
            for name in [&schemas.options, &schemas.action, &schemas.event, &schemas.view] {
                assert!(value["components"]["schemas"][name].is_object(), "{name} missing");
            }
            assert!(value["x-roadie-rulesets"][ruleset.slug]["machine"]["phases"].is_array());
        }
    }

    #[test]
    fn seat_numbers_have_a_schema_named_seat() {
        let text = document_json();
        assert!(!text.contains("#/components/schemas/usize"));
        assert!(text.contains("#/components/schemas/Seat"));
        let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(doc["components"]["schemas"]["Seat"]["type"], "integer");
        assert!(doc["components"]["schemas"].get("usize").is_none());
    }

    #[test]
    fn a_tagged_one_of_gets_a_discriminator() {
        let value = serde_json::to_value(document()).expect("json");
        for ruleset in RULESETS {
            let action = &value["components"]["schemas"][(ruleset.schemas)().action];
            if action["oneOf"].is_array() {
                assert_eq!(
                    action["discriminator"]["propertyName"], "type",
                    "{}",
                    ruleset.slug
                );
            }
        }
    }
}
