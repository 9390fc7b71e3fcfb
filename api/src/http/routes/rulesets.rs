//! `/v1/rulesets`: the games Roadie hosts.

use actix_web::{HttpResponse, web};
use roadie_engine::{RULESETS, Ruleset};

use crate::table::{Code, Refusal};
use crate::wire::catalogue::RulesetComponents;
use crate::wire::{RulesetDetail, RulesetList, RulesetSchemaNames, RulesetSummary, SeatRange};

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
pub async fn list_rulesets() -> HttpResponse {
    HttpResponse::Ok().json(RulesetList {
        rulesets: RULESETS
            .iter()
            .map(|r| RulesetSummary {
                slug: r.slug,
                title: r.title,
                seats: seats(r),
            })
            .collect(),
    })
}

/// One ruleset: seats, options with defaults, schema names and the phase machine (as JSON and
/// as a Mermaid state diagram).
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
}
