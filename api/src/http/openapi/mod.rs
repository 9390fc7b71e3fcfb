//! The OpenAPI document, generated from the code.
//!
//! Paths and wire types come from the utoipa annotations. Each ruleset brings its own named
//! schemas (options, actions, events, views). [`RulesetDocs`] adds them, every ruleset's phase
//! machine as the `x-roadie-rulesets` extension, and the bearer security schemes. [`document`]
//! then makes the document unambiguous: each variant of a tagged enum becomes a named schema
//! behind a discriminator with a mapping ([`name_variants`]), each wire type that carries a
//! ruleset's actions, events, views or options becomes a `oneOf` of per-ruleset schemas
//! selected by its `ruleset` field ([`per_ruleset`]), the posted action a `oneOf` over every
//! ruleset's action variants ([`any_action`]), and no variant requires its union's tag
//! ([`tags_not_required`]).

use roadie_engine::RULESETS;
use serde_json::json;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{Components, OpenApi as Document};
use utoipa::{Modify, OpenApi};

use crate::http::{problem as error, routes};
use crate::wire as model;
use crate::wire::{AnyAction, AnyEvent, AnyOptions, AnyView};

mod examples;
mod links;

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
        crate::wire::seats::SeatGrant, crate::wire::seats::JoinSeat, crate::wire::seats::ReplaceSeat, crate::wire::seats::SeatChanged,
        crate::table::seats::SeatEvent, crate::table::seats::SeatInfo, crate::wire::lobby::OpenGames, crate::wire::lobby::ListStatus,
        crate::table::notices::WebhookNotice, crate::table::clock::ClockExpired, crate::table::abort::GameAborted,
        crate::table::rating::RatingsChanged,
        crate::wire::tickets::CreateTicket, crate::wire::tickets::CreatedTicket, crate::wire::tickets::TicketInfo,
        crate::wire::tickets::TicketStatus, crate::wire::hints::Hint, crate::wire::hints::ConsideredAction,
        ),
        responses(
            error::BadRequest, error::Unauthorized, error::Forbidden, error::NotFound,
            error::RequestTimeout, error::Conflict, error::PreconditionFailed, error::PayloadTooLarge,
            error::Unprocessable, error::TooManyRequests, error::ServiceUnavailable,
        ),
    ),
    tags(
        (name = "games", description = "Create games and play them, one seat token each"),
        (name = "seats", description = "Join open seats by name, resign, give seats to bots, reissue tokens"),
        (name = "matchmaking", description = "Tickets that seat strangers who want the same game together"),
        (name = "rulesets", description = "The games Roadie hosts, their options and phase machines"),
        (name = "records", description = "Finished games' signed records, played again and checked"),
        (name = "ratings", description = "Players' ratings per ruleset in an app, its leaderboards and players"),
        (name = "operations", description = "Health, readiness and metrics"),
    ),
    modifiers(&RulesetDocs),
)]
pub struct ApiDoc;

/// Adds what the derive cannot: ruleset schemas, phase machines, security.
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
            "ticket_token",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("A matchmaking ticket's `token` from `POST /v1/tickets`"))
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
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("rk_...")
                    .description(Some(
                        "An app's API key (`roadie apps new-key`), where apps are configured: it \
                         creates and lists the app's games and manages them",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "player_token",
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some(
                        "A player token an app signed (EdDSA, ES256 or RS256; `iss` the app, `sub` the \
                         player, `aud` `roadie`): it opens every seat its player holds in the app's games",
                    ))
                    .build(),
            ),
        );
        doc.extensions
            .get_or_insert_with(Extensions::default)
            .insert("x-roadie-rulesets".into(), serde_json::Value::Object(rulesets));
    }
}

type Schemas = serde_json::Map<String, serde_json::Value>;

const SCHEMAS: &str = "#/components/schemas/";

fn schema_ref(name: &str) -> serde_json::Value {
    json!({"$ref": format!("{SCHEMAS}{name}")})
}

/// `snake_case` or `kebab-case` as `PascalCase`: the Rust name serde's renaming came from.
fn pascal(text: &str) -> String {
    text.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The tag of an inline variant as serde's internal tagging writes it: a required property
/// whose schema allows one string only.
fn tag_of(variant: &serde_json::Value) -> Option<(String, String)> {
    let required = variant.get("required")?.as_array()?;
    variant
        .get("properties")?
        .as_object()?
        .iter()
        .find_map(
            |(name, property)| match property.get("enum")?.as_array()?.as_slice() {
                [serde_json::Value::String(value)] if required.iter().any(|r| r == name) => {
                    Some((name.clone(), value.clone()))
                }
                _ => None,
            },
        )
}

/// Every variant of an internally tagged enum becomes a schema of its own, named for the enum
/// and the variant (`ShowBusinessAction_Pass`), and the enum a `oneOf` of references with a
/// discriminator that maps each tag value to its variant's schema.
fn name_variants(schemas: &mut Schemas) {
    let names: Vec<String> = schemas.keys().cloned().collect();
    for name in names {
        let Some(variants) = schemas[&name].get("oneOf").and_then(|o| o.as_array()) else {
            continue;
        };
        let tags: Option<Vec<(String, String)>> = variants.iter().map(tag_of).collect();
        let Some(tags) = tags.filter(|t| !t.is_empty()) else {
            continue;
        };
        if tags.iter().any(|(property, _)| *property != tags[0].0) {
            continue;
        }
        let variants = variants.clone();
        let mut mapping = serde_json::Map::new();
        let mut refs = Vec::new();
        for (variant, (_, value)) in variants.into_iter().zip(&tags) {
            let variant_name = format!("{name}_{}", pascal(value));
            mapping.insert(value.clone(), format!("{SCHEMAS}{variant_name}").into());
            refs.push(schema_ref(&variant_name));
            schemas.insert(variant_name, variant);
        }
        if let Some(serde_json::Value::Object(union)) = schemas.get_mut(&name) {
            union.insert("oneOf".into(), refs.into());
            union.insert(
                "discriminator".into(),
                json!({"propertyName": tags[0].0, "mapping": mapping}),
            );
        }
    }
}

/// Each wire type that carries a ruleset's actions, events, views or options gets one schema
/// per ruleset (`ShrewdProducerGameState`...) whose `ruleset` (or `slug`) allows that ruleset
/// only, and the wire type becomes a `oneOf` of them with a discriminator on that field: an
/// action or event of one game never validates as another's.
fn per_ruleset(schemas: &mut Schemas) {
    const WIRE_TYPES: [(&str, &str); 8] = [
        ("CreateGame", "ruleset"),
        ("CreatedGame", "ruleset"),
        ("GameState", "ruleset"),
        ("LegalActions", "ruleset"),
        ("SequencedEvent", ""),
        ("ActionResult", "ruleset"),
        ("EventLog", "ruleset"),
        ("RulesetDetail", "slug"),
    ];
    for (base, tag) in WIRE_TYPES {
        let Some(template) = schemas.get(base).cloned() else {
            continue;
        };
        let mut mapping = serde_json::Map::new();
        let mut refs = Vec::new();
        for ruleset in RULESETS {
            let prefix = pascal(ruleset.slug);
            let names = (ruleset.schemas)();
            let mut schema = template.clone();
            let description = schema["description"].as_str().unwrap_or_default().to_owned();
            schema["description"] =
                format!("{} ({}).", description.trim_end_matches('.'), ruleset.title).into();
            let properties = &mut schema["properties"];
            if !tag.is_empty() {
                let about = properties[tag]["description"].clone();
                properties[tag] = json!({"type": "string", "enum": [ruleset.slug], "description": about});
            }
            let mut point = |property: &str, target: serde_json::Value| {
                if let Some(p) = properties.get_mut(property) {
                    let about = p["description"].clone();
                    *p = target;
                    if about.is_string() {
                        p["description"] = about;
                    }
                }
            };
            match base {
                "CreateGame" => {
                    point(
                        "options",
                        json!({"oneOf": [schema_ref(&names.options), {"type": "null"}]}),
                    );
                    point(
                        "seats",
                        json!({"oneOf": [
                            {"type": "integer", "minimum": ruleset.seats.start(), "maximum": ruleset.seats.end()},
                            {"type": "array", "items": schema_ref("SeatSpec"),
                                "minItems": ruleset.seats.start(), "maxItems": ruleset.seats.end()},
                        ]}),
                    );
                }
                "GameState" => point("view", schema_ref(&names.view)),
                "LegalActions" => point(
                    "actions",
                    json!({"type": "array", "items": schema_ref(&names.action)}),
                ),
                "SequencedEvent" => point("body", schema_ref(&names.event)),
                "ActionResult" => {
                    point("game", schema_ref(&format!("{prefix}GameState")));
                    point(
                        "events",
                        json!({"type": "array", "items": schema_ref(&format!("{prefix}SequencedEvent"))}),
                    );
                }
                "EventLog" => point(
                    "events",
                    json!({"type": "array", "items": schema_ref(&format!("{prefix}SequencedEvent"))}),
                ),
                "RulesetDetail" => point("options", schema_ref(&names.options)),
                _ => {}
            }
            if let Some(example) = schema.as_object_mut().and_then(|s| s.remove("example"))
                && example.get(tag).and_then(|v| v.as_str()) == Some(ruleset.slug)
            {
                schema["example"] = example;
            }
            let name = format!("{prefix}{base}");
            mapping.insert(ruleset.slug.into(), format!("{SCHEMAS}{name}").into());
            refs.push(schema_ref(&name));
            schemas.insert(name, schema);
        }
        if tag.is_empty() {
            schemas.remove(base);
            continue;
        }
        let mut union = json!({
            "description": template["description"],
            "oneOf": refs,
            "discriminator": {"propertyName": tag, "mapping": mapping},
        });
        if let Some(example) = template.get("example") {
            union["example"] = example.clone();
        }
        schemas.insert(base.into(), union);
    }
    for unused in ["AnyEvent", "AnyView", "AnyOptions"] {
        schemas.remove(unused);
    }
    any_action(schemas);
}

/// A schema without what only documents it (`title`, `description`, `example`): two variants
/// with the same bare schema accept the same bodies.
fn bare(schema: &serde_json::Value) -> serde_json::Value {
    let mut bare = schema.clone();
    if let Some(map) = bare.as_object_mut() {
        for key in ["title", "description", "example"] {
            map.remove(key);
        }
    }
    bare
}

/// `AnyAction`, the `action` of `POST /v1/games/{id}/actions`: a `oneOf` with a discriminator on
/// `type` whose every member is a variant object, so that what a game's action list holds (an
/// element of its ruleset's action union) is also an `AnyAction` in a generated client's types.
/// Each action type maps to the variant of the ruleset that has it; where rulesets share an
/// action type with the very same shape (`pass`), the first ruleset's variant; where their shapes
/// differ (`play`, `buy`), to `AnyAction_<Type>`, one object whose properties are all of theirs
/// (a property they type differently is a `oneOf` of their types) and which requires what they
/// all require. Every listed action thus validates as exactly one member.
fn any_action(schemas: &mut Schemas) {
    let mut types: Vec<(String, Vec<String>)> = Vec::new();
    for ruleset in RULESETS {
        let union = (ruleset.schemas)().action;
        let members = schemas
            .get(&union)
            .and_then(|u| u.get("oneOf"))
            .and_then(|o| o.as_array())
            .cloned()
            .unwrap_or_default();
        for member in members {
            let Some(name) = member["$ref"].as_str().and_then(|r| r.strip_prefix(SCHEMAS)) else {
                continue;
            };
            let Some(tag) = schemas
                .get(name)
                .and_then(|v| v.pointer("/properties/type/enum/0"))
                .and_then(|t| t.as_str())
            else {
                continue;
            };
            let at = match types.iter().position(|(t, _)| t == tag) {
                Some(at) => at,
                None => {
                    types.push((tag.to_owned(), Vec::new()));
                    types.len() - 1
                }
            };
            let shape = bare(&schemas[name]);
            if !types[at].1.iter().any(|other| bare(&schemas[other]) == shape) {
                types[at].1.push(name.to_owned());
            }
        }
    }
    let mut mapping = serde_json::Map::new();
    let mut refs = Vec::new();
    for (tag, variants) in types {
        let target = match variants.as_slice() {
            [one] => one.clone(),
            _ => {
                let name = format!("AnyAction_{}", pascal(&tag));
                let merged = merged_variant(schemas, &tag, &variants);
                schemas.insert(name.clone(), merged);
                name
            }
        };
        mapping.insert(tag, format!("{SCHEMAS}{target}").into());
        refs.push(schema_ref(&target));
    }
    schemas.insert(
        "AnyAction".into(),
        json!({
            "description": "An action of one of the rulesets; the game's own ruleset decides (see the game's `GET /v1/games/{id}/actions`, each element of which is an `AnyAction`).",
            "oneOf": refs,
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }),
    );
}

/// One object for the action type `tag` that `variants` (of different rulesets) give different
/// shapes: every property of any of them (one a variant types differently from another is a
/// `oneOf` of their types), required where all of them require it.
fn merged_variant(schemas: &Schemas, tag: &str, variants: &[String]) -> serde_json::Value {
    let mut properties: Vec<(String, Vec<serde_json::Value>)> = Vec::new();
    let mut required: Option<Vec<serde_json::Value>> = None;
    let mut about = Vec::new();
    for variant in variants {
        let schema = &schemas[variant];
        about.push(format!("`{variant}`"));
        for (property, definition) in schema["properties"].as_object().into_iter().flatten() {
            let at = match properties.iter().position(|(p, _)| p == property) {
                Some(at) => at,
                None => {
                    properties.push((property.clone(), Vec::new()));
                    properties.len() - 1
                }
            };
            if !properties[at]
                .1
                .iter()
                .any(|other| bare(other) == bare(definition))
            {
                properties[at].1.push(definition.clone());
            }
        }
        let own = schema["required"].as_array().cloned().unwrap_or_default();
        required = Some(match required {
            None => own,
            Some(all) => all.into_iter().filter(|r| own.contains(r)).collect(),
        });
    }
    let properties: serde_json::Map<String, serde_json::Value> = properties
        .into_iter()
        .map(|(property, mut types)| {
            let definition = if types.len() == 1 {
                types.remove(0)
            } else {
                json!({"oneOf": types.iter().map(bare).collect::<Vec<_>>()})
            };
            (property, definition)
        })
        .collect();
    let mut merged = json!({
        "type": "object",
        "description": format!("A `{tag}` action: one of {}, whichever the game's ruleset has.", about.join(", ")),
        "properties": properties,
    });
    if let Some(required) = required.filter(|r| !r.is_empty()) {
        merged["required"] = required.into();
    }
    merged
}

/// The finished document: the skeleton with the operations of every mounted route.
pub fn document() -> Document {
    let mut doc = ApiDoc::openapi();
    doc.merge(routes::Documented::openapi());
    links::Links.modify(&mut doc);
    examples::Examples.modify(&mut doc);
    match serde_json::to_value(&doc) {
        Ok(mut value) => {
            idempotency_key_format(&mut value);
            too_many_requests_everywhere(&mut value);
            if let Some(serde_json::Value::Object(schemas)) = value.pointer_mut("/components/schemas") {
                name_variants(schemas);
                service_events_in_every_ruleset(schemas);
                per_ruleset(schemas);
                tags_not_required(schemas);
                titles(schemas);
            }
            serde_json::from_value(value).unwrap_or(doc)
        }
        Err(_) => doc,
    }
}

/// The discriminated unions that only request bodies carry.
const REQUESTED_ONLY: [&str; 1] = ["CreateGame"];

/// A variant that a discriminated `oneOf` names does not list the discriminator's property as
/// required: the property stays, with the one value its `enum` allows, so every answer validates
/// as before, and the discriminator decides the variant. Generators read the discriminator as the
/// union's tag and the variant's own property as optional, which is what lets openapi-generator's
/// `rust` write an internally tagged enum whose variants deserialize (serde has already taken the
/// tag when the variant's struct is read).
///
/// The unions of [`REQUESTED_ONLY`], which only requests carry, keep requiring their tag: no
/// answer is read with them, and a request without the tag is refused (`POST /v1/games` cannot
/// tell which game to create), so the document must not call it valid.
fn tags_not_required(schemas: &mut Schemas) {
    let mut variants: Vec<(String, String)> = Vec::new();
    for (name, union) in schemas.iter() {
        if REQUESTED_ONLY.contains(&name.as_str()) {
            continue;
        }
        let Some(property) = union
            .pointer("/discriminator/propertyName")
            .and_then(|p| p.as_str())
        else {
            continue;
        };
        let members = union
            .get("oneOf")
            .and_then(|o| o.as_array())
            .map(Vec::as_slice)
            .unwrap_or_default();
        for member in members {
            if let Some(name) = member
                .get("$ref")
                .and_then(|r| r.as_str())
                .and_then(|r| r.strip_prefix(SCHEMAS))
            {
                variants.push((name.to_owned(), property.to_owned()));
            }
        }
    }
    for (name, property) in variants {
        let Some(serde_json::Value::Object(variant)) = schemas.get_mut(&name) else {
            continue;
        };
        if let Some(serde_json::Value::Array(required)) = variant.get_mut("required") {
            required.retain(|r| *r != *property);
            if required.is_empty() {
                variant.remove("required");
            }
        }
    }
}

/// Each named schema carries its name as its `title`, so viewers (Swagger UI's Schema tab) name
/// the type instead of showing a bare `object`.
fn titles(schemas: &mut Schemas) {
    for (name, schema) in schemas.iter_mut() {
        if let Some(schema) = schema.as_object_mut() {
            schema
                .entry("title")
                .or_insert_with(|| serde_json::Value::String(name.clone()));
        }
    }
}

/// Every ruleset's event union also lists the events the service itself writes into any game's
/// log: the seat events ([`crate::table::seats::SeatEvent`], whose own union is then left out),
/// [`crate::table::clock::ClockExpired`], [`crate::table::abort::GameAborted`] and
/// [`crate::table::rating::RatingsChanged`].
fn service_events_in_every_ruleset(schemas: &mut Schemas) {
    let Some(mut seat_events) = schemas.remove("SeatEvent") else {
        return;
    };
    for (schema, kind) in [
        ("ClockExpired", "clock_expired"),
        ("GameAborted", "game_aborted"),
        ("RatingsChanged", "ratings_changed"),
    ] {
        if !schemas.contains_key(schema) {
            continue;
        }
        let target = format!("#/components/schemas/{schema}");
        if let Some(serde_json::Value::Array(refs)) = seat_events.get_mut("oneOf") {
            refs.push(json!({ "$ref": target }));
        }
        if let Some(serde_json::Value::Object(mapping)) = seat_events.pointer_mut("/discriminator/mapping") {
            mapping.insert(kind.into(), json!(target));
        }
    }
    for ruleset in RULESETS {
        let name = (ruleset.schemas)().event;
        let Some(serde_json::Value::Object(union)) = schemas.get_mut(&name) else {
            continue;
        };
        if let (Some(serde_json::Value::Array(refs)), Some(serde_json::Value::Array(more))) =
            (union.get_mut("oneOf"), seat_events.get("oneOf"))
        {
            refs.extend(more.iter().cloned());
        }
        if let (Some(serde_json::Value::Object(mapping)), Some(serde_json::Value::Object(more))) = (
            union.get_mut("discriminator").and_then(|d| d.get_mut("mapping")),
            seat_events.pointer("/discriminator/mapping"),
        ) {
            mapping.extend(more.clone());
        }
    }
}

/// Every operation lists `429` (with its `Retry-After`): a request on a connection beyond its
/// address's limit is refused with `too_many_connections` whatever it asks
/// ([`crate::http::limits::Limits::admit_connection`]), a token's calls with `rate_limited`
/// ([`crate::http::limits::Limits::admit_token`]) and an address's creations too.
fn too_many_requests_everywhere(value: &mut serde_json::Value) {
    let Some(paths) = value.get_mut("paths").and_then(|p| p.as_object_mut()) else {
        return;
    };
    let responses = paths
        .values_mut()
        .filter_map(|item| item.as_object_mut())
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses").and_then(|r| r.as_object_mut()));
    for responses in responses {
        responses
            .entry("429")
            .or_insert_with(|| json!({"$ref": "#/components/responses/TooManyRequests"}));
    }
}

/// The `Idempotency-Key` header's schema: what [`crate::http::extract::IdempotencyKey`] accepts.
fn idempotency_key_format(value: &mut serde_json::Value) {
    let Some(paths) = value.get_mut("paths").and_then(|p| p.as_object_mut()) else {
        return;
    };
    let parameters = paths
        .values_mut()
        .filter_map(|item| item.as_object_mut())
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("parameters").and_then(|p| p.as_array_mut()))
        .flatten();
    for parameter in parameters {
        if parameter["name"] == "Idempotency-Key" {
            parameter["schema"] = json!({
                "type": "string",
                "minLength": 1,
                "maxLength": crate::http::extract::MAX_IDEMPOTENCY_KEY,
                "pattern": "^[!-~]+$",
            });
        }
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

    /// A `$ref` to something the document does not hold fails every strict reader (the generators'
    /// validation among them).
    #[test]
    fn every_schema_reference_resolves() {
        fn refs(value: &serde_json::Value, out: &mut Vec<String>) {
            match value {
                serde_json::Value::Object(map) => {
                    if let Some(serde_json::Value::String(target)) = map.get("$ref") {
                        out.push(target.clone());
                    }
                    map.values().for_each(|v| refs(v, out));
                }
                serde_json::Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
                _ => {}
            }
        }
        let value: serde_json::Value = serde_json::from_str(&document_json()).expect("json");
        let mut found = Vec::new();
        refs(&value, &mut found);
        assert!(found.len() > 100, "only {} references", found.len());
        let dangling: Vec<&String> = found
            .iter()
            .filter(|target| {
                target
                    .strip_prefix('#')
                    .and_then(|pointer| value.pointer(pointer))
                    .is_none_or(|found| !found.is_object())
            })
            .collect();
        assert!(dangling.is_empty(), "references to no schema: {dangling:?}");
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

    /// Walks every schema of the document, failing on what generators cannot name or tell apart.
    fn unambiguous(path: &str, node: &serde_json::Value, problems: &mut Vec<String>) {
        match node {
            serde_json::Value::Object(map) => {
                if map.contains_key("prefixItems") || map.get("items") == Some(&json!(false)) {
                    problems.push(format!("{path}: a tuple"));
                }
                if let Some(discriminator) = map.get("discriminator") {
                    let members = map["oneOf"].as_array().map(Vec::as_slice).unwrap_or_default();
                    let mapping = discriminator["mapping"].as_object();
                    if members.iter().any(|m| m.get("$ref").is_none())
                        || mapping.map(|m| m.len()) != Some(members.len())
                    {
                        problems.push(format!(
                            "{path}: a discriminator over inline members or without mapping"
                        ));
                    }
                }
                for (key, value) in map {
                    unambiguous(&format!("{path}/{key}"), value, problems);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, value) in items.iter().enumerate() {
                    unambiguous(&format!("{path}/{i}"), value, problems);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn every_union_is_of_named_schemas_with_a_mapping_and_nothing_is_a_tuple() {
        let value = serde_json::to_value(document()).expect("json");
        let mut problems = Vec::new();
        unambiguous("", &value, &mut problems);
        assert!(problems.is_empty(), "{problems:#?}");
        let schemas = value["components"]["schemas"].as_object().expect("schemas");
        assert!(schemas.contains_key("ShowBusinessAction_Pass"));
        assert!(schemas.contains_key("ShrewdProducerEvent_ScoutPlayed"));
        for wire in [
            "CreateGame",
            "CreatedGame",
            "GameState",
            "LegalActions",
            "ActionResult",
            "EventLog",
        ] {
            assert_eq!(
                schemas[wire]["discriminator"]["propertyName"], "ruleset",
                "{wire}"
            );
            for ruleset in RULESETS {
                let name = format!("{}{wire}", pascal(ruleset.slug));
                assert_eq!(
                    schemas[&name]["properties"]["ruleset"]["enum"],
                    json!([ruleset.slug]),
                    "{name}"
                );
            }
        }
    }

    /// Follows a `$ref` within the document.
    fn resolve<'a>(doc: &'a serde_json::Value, node: &'a serde_json::Value) -> &'a serde_json::Value {
        match node["$ref"].as_str().and_then(|r| r.strip_prefix('#')) {
            Some(pointer) => doc.pointer(pointer).unwrap_or(&serde_json::Value::Null),
            None => node,
        }
    }

    /// Every operation can be refused with `429`: each checks the connection's address, and
    /// those with a token (or that create) its rate as well. Each says so, with `Retry-After`.
    #[test]
    fn every_operation_documents_429_with_retry_after() {
        let doc = serde_json::to_value(document()).expect("json");
        let mut missing = Vec::new();
        let mut token_checked = 0;
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("path item") {
                let Some(responses) = operation.get("responses") else {
                    continue;
                };
                let schemes = operation["security"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                if schemes
                    .iter()
                    .any(|s| s.as_object().is_some_and(|s| !s.is_empty()))
                {
                    token_checked += 1;
                }
                let limited = resolve(&doc, &responses["429"]);
                let retry_after = resolve(&doc, &limited["headers"]["Retry-After"]);
                if limited["content"]["application/problem+json"].is_null()
                    || retry_after["schema"]["type"] != "integer"
                {
                    missing.push(format!("{method} {path}"));
                }
            }
        }
        assert!(token_checked >= 9, "{token_checked} token-checked operations");
        assert!(missing.is_empty(), "no 429 with Retry-After: {missing:#?}");
    }

    #[test]
    fn every_named_schema_has_a_title() {
        let doc = serde_json::to_value(document()).expect("json");
        let untitled: Vec<&String> = doc["components"]["schemas"]
            .as_object()
            .expect("schemas")
            .iter()
            .filter(|(_, schema)| !schema["title"].is_string())
            .map(|(name, _)| name)
            .collect();
        assert!(untitled.is_empty(), "schemas without a title: {untitled:?}");
        assert_eq!(doc["components"]["schemas"]["GameState"]["title"], "GameState");
    }

    /// Every action a ruleset lists is an `AnyAction` as posted: `AnyAction` maps each action
    /// type to a variant of a ruleset union (or to the merged variant of the rulesets that shape
    /// it differently), and every variant a ruleset's union names is covered.
    #[test]
    fn any_action_maps_every_action_type_of_every_ruleset() {
        let doc = serde_json::to_value(document()).expect("json");
        let schemas = doc["components"]["schemas"].as_object().expect("schemas");
        let any = &schemas["AnyAction"];
        assert_eq!(any["discriminator"]["propertyName"], "type");
        let mapping = any["discriminator"]["mapping"].as_object().expect("mapping");
        assert_eq!(any["oneOf"].as_array().map(Vec::len), Some(mapping.len()));
        for ruleset in RULESETS {
            let union = &schemas[&(ruleset.schemas)().action];
            for (tag, variant) in union["discriminator"]["mapping"].as_object().expect("mapping") {
                let posted = mapping
                    .get(tag)
                    .and_then(|t| t.as_str())
                    .and_then(|t| t.strip_prefix(SCHEMAS))
                    .unwrap_or_else(|| panic!("AnyAction has no {tag} ({})", ruleset.slug));
                let variant = variant
                    .as_str()
                    .and_then(|v| v.strip_prefix(SCHEMAS))
                    .expect("a ref");
                let listed = &schemas[variant];
                let posted = &schemas[posted];
                for (property, definition) in listed["properties"].as_object().expect("properties") {
                    let accepted = &posted["properties"][property];
                    let options = accepted["oneOf"]
                        .as_array()
                        .cloned()
                        .unwrap_or_else(|| vec![accepted.clone()]);
                    assert!(
                        options.iter().any(|o| bare(o) == bare(definition)),
                        "{}'s {tag}.{property} is not what AnyAction accepts",
                        ruleset.slug
                    );
                }
                for required in posted["required"].as_array().into_iter().flatten() {
                    assert!(
                        listed["required"]
                            .as_array()
                            .is_some_and(|r| r.contains(required)),
                        "AnyAction's {tag} requires {required}, which {} does not",
                        ruleset.slug
                    );
                }
            }
        }
        assert!(schemas.contains_key("AnyAction_Play") && schemas.contains_key("AnyAction_Buy"));
    }

    /// No variant of a discriminated union an answer may hold requires the discriminator's
    /// property (generators read it as the union's tag), each still allows one value of it, and
    /// the variants of a union only requests carry still require it.
    #[test]
    fn variants_keep_their_tag_without_requiring_it() {
        let doc = serde_json::to_value(document()).expect("json");
        let schemas = doc["components"]["schemas"].as_object().expect("schemas");
        let mut variants = 0;
        for (union_name, union) in schemas {
            let Some(property) = union["discriminator"]["propertyName"].as_str() else {
                continue;
            };
            let requested_only = REQUESTED_ONLY.contains(&union_name.as_str());
            for (value, target) in union["discriminator"]["mapping"].as_object().expect("mapping") {
                let name = target
                    .as_str()
                    .and_then(|t| t.strip_prefix(SCHEMAS))
                    .expect("a ref");
                let variant = &schemas[name];
                assert_eq!(
                    variant["required"]
                        .as_array()
                        .is_some_and(|r| r.iter().any(|p| p == property)),
                    requested_only,
                    "{name}: requires {property}"
                );
                let tag = resolve(&doc, &variant["properties"][property]);
                assert_eq!(tag["enum"], json!([value]), "{name}");
                variants += 1;
            }
        }
        assert!(variants > 250, "{variants} variants");
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
