//! `/v1/rulesets`: the games Roadie hosts.

use actix_web::{HttpResponse, web};
use roadie_engine::{RULESETS, Ruleset};

use crate::error::{ApiError, Code};
use crate::model::{RulesetDetail, RulesetList, RulesetSchemaNames, RulesetSummary, SeatRange};

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
        (status = 404, response = crate::error::NotFound),
    ))]
pub async fn get_ruleset(slug: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let ruleset = Ruleset::find(&slug).ok_or_else(|| {
        ApiError::new(
            Code::RulesetNotFound,
            format!("no ruleset is called {:?}; see GET /v1/rulesets", slug.as_str()),
        )
    })?;
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
