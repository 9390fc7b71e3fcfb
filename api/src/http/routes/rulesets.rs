//! `/v1/rulesets`: the games Roadie hosts.

use actix_web::{HttpResponse, web};
use roadie_engine::{RULESETS, Ruleset};

use crate::service::Games;
use crate::table::{Code, Refusal};
use crate::wire::catalogue::{RulesetComponents, RulesetRules};
use crate::wire::{RulesetDetail, RulesetList, RulesetSchemaNames, RulesetSummary, SeatRange};

/// The sentences of the events the service writes into every ruleset's log: the seat events
/// ([`crate::table::seats::SeatEvent`]) and [`crate::table::clock::ClockExpired`].
const SERVICE_MESSAGES: &[(&str, &str)] = &[
    ("seat_taken", "{name} took seat {seat}"),
    (
        "seat_resigned",
        "The player of seat {seat} resigned: a {level} bot plays it from now on",
    ),
    ("seat_replaced", "The host gave seat {seat} to a {level} bot"),
    ("seat_handed", "The app handed seat {seat} to player {player}"),
    ("game_aborted", "The game was aborted by its {by}: nobody wins"),
    (
        "ratings_changed",
        "The game was rated: each player's rating moved",
    ),
    ("token_reissued", "The host issued {seat|seat} a new token"),
    (
        "clock_expired",
        "{seat|seat} ran out of time: a {level} bot played for them || {seat|seat} ran out of time: \
         the ruleset's timeout action was played for them",
    ),
];

/// Every event type of the ruleset's log and its sentence template.
fn messages(ruleset: &Ruleset) -> std::collections::BTreeMap<String, String> {
    let mut messages = (ruleset.messages)();
    messages.extend(roadie_engine::texts::messages(SERVICE_MESSAGES));
    messages
}

fn find(slug: &str) -> Result<&'static Ruleset, Refusal> {
    Ruleset::find(slug).ok_or_else(|| {
        Refusal::new(
            Code::RulesetNotFound,
            format!("no ruleset is called {slug:?}; see GET /v1/rulesets"),
        )
    })
}

fn seats(ruleset: &Ruleset) -> SeatRange {
    SeatRange {
        min: *ruleset.seats.start(),
        max: *ruleset.seats.end(),
    }
}

/// Every ruleset with its seat counts.
#[utoipa::path(get, path = "/v1/rulesets", tag = "rulesets",
    responses((status = 200, description = "The rulesets", body = RulesetList)))]
pub async fn list_rulesets(games: web::Data<Games>) -> HttpResponse {
    HttpResponse::Ok().json(RulesetList {
        rulesets: RULESETS
            .iter()
            .map(|r| RulesetSummary {
                slug: r.slug,
                title: r.title,
                seats: seats(r),
                rules_version: games.rules().version(r.slug),
            })
            .collect(),
    })
}

/// One ruleset: seats, options with defaults, schema names, the phase machine (as JSON and as a
/// Mermaid state diagram) and a sentence template for each event type.
#[utoipa::path(get, path = "/v1/rulesets/{ruleset}", tag = "rulesets",
    params(("ruleset" = String, Path, description = "The ruleset's slug")),
    responses(
        (status = 200, description = "The ruleset", body = RulesetDetail),
        (status = 404, response = crate::http::problem::NotFound),
    ))]
pub async fn get_ruleset(slug: web::Path<String>) -> Result<HttpResponse, Refusal> {
    let ruleset = find(&slug)?;
    let machine = (ruleset.machine)();
    let schemas = (ruleset.schemas)();
    Ok(HttpResponse::Ok().json(RulesetDetail {
        slug: ruleset.slug,
        title: ruleset.title,
        seats: seats(ruleset),
        options: (ruleset.default_options)(),
        schemas: RulesetSchemaNames {
            options: schemas.options,
            action: schemas.action,
            event: schemas.event,
            view: schemas.view,
        },
        mermaid: machine.mermaid(),
        machine,
        messages: messages(ruleset),
    }))
}

/// Every printed component of the ruleset (cards, artists, characters, cities, spaces, tokens,
/// songs, die faces, ...), by kind, keyed by the very ids its views, actions and events carry,
/// with printed names and attributes.
#[utoipa::path(get, path = "/v1/rulesets/{ruleset}/components", tag = "rulesets",
    params(("ruleset" = String, Path, description = "The ruleset's slug")),
    responses(
        (status = 200, description = "The ruleset's component catalogue", body = RulesetComponents),
        (status = 404, response = crate::http::problem::NotFound),
    ))]
pub async fn get_components(slug: web::Path<String>) -> Result<HttpResponse, Refusal> {
    let ruleset = find(&slug)?;
    Ok(HttpResponse::Ok().json(RulesetComponents {
        ruleset: ruleset.slug,
        components: (ruleset.components)(),
    }))
}

/// The ruleset's rules in Roadie's words: a "how to play" overview (goal, setup, turn, end,
/// scoring), then every ruling it cites anywhere (phase descriptions, options, problems,
/// component texts), each with the other rules it refers to.
#[utoipa::path(get, path = "/v1/rulesets/{ruleset}/rules", tag = "rulesets",
    params(("ruleset" = String, Path, description = "The ruleset's slug")),
    responses(
        (status = 200, description = "The ruleset's rules", body = RulesetRules),
        (status = 404, response = crate::http::problem::NotFound),
    ))]
pub async fn get_rules(slug: web::Path<String>) -> Result<HttpResponse, Refusal> {
    let ruleset = find(&slug)?;
    Ok(HttpResponse::Ok().json(RulesetRules {
        ruleset: ruleset.slug,
        rules: (ruleset.rules)(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed document carries each ruleset's diagram as the machine draws it now.
    #[test]
    fn the_committed_document_holds_every_phase_diagram() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
        let text = std::fs::read_to_string(path).expect("the committed document");
        let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        for ruleset in RULESETS {
            assert_eq!(
                doc["x-roadie-rulesets"][ruleset.slug]["mermaid"],
                (ruleset.machine)().mermaid(),
                "{}",
                ruleset.slug
            );
        }
    }

    /// Every event type of each ruleset's union in the served document, the seat events and
    /// `clock_expired` included, has a template whose placeholders are fields of that event.
    #[test]
    fn every_event_type_of_every_log_has_a_template_naming_its_fields() {
        let document: serde_json::Value =
            serde_json::from_str(&crate::http::openapi::document_json()).expect("the document is JSON");
        let schemas = document["components"]["schemas"].as_object().expect("schemas");
        for ruleset in RULESETS {
            let fields = roadie_engine::texts::event_fields(schemas, &(ruleset.schemas)().event);
            for service in ["seat_taken", "seat_resigned", "clock_expired"] {
                assert!(
                    fields.contains_key(service),
                    "{}: {service} is not in the union",
                    ruleset.slug
                );
            }
            let problems = roadie_engine::texts::message_problems(&fields, &messages(ruleset));
            assert!(problems.is_empty(), "{}: {problems:#?}", ruleset.slug);
            let mut without = messages(ruleset);
            without.remove("clock_expired");
            assert_eq!(
                roadie_engine::texts::message_problems(&fields, &without),
                ["clock_expired: no template"]
            );
        }
    }
}
