//! `GET /v1/rulesets/{ruleset}/rules`: every rule id a ruleset serves anywhere resolves in it.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::helpers::TestApp;

/// Every rule id `value` cites in its strings.
fn cited(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) => out.extend(roadie_engine::texts::cited_ids(s)),
        Value::Array(items) => items.iter().for_each(|v| cited(v, out)),
        Value::Object(map) => map.values().for_each(|v| cited(v, out)),
        _ => {}
    }
}

/// `PascalCase` of a slug: the prefix of its schemas in the document.
fn prefix(slug: &str) -> String {
    slug.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect()
}

#[actix_web::test]
async fn every_ruleset_serves_its_rules_and_every_id_it_cites_resolves() {
    let app = TestApp::spawn(&[]).await;
    let document = app.get("/api-docs/openapi.json", None).await.json;
    let list = app.get("/v1/rulesets", None).await;
    let slugs: Vec<String> = list.json["rulesets"]
        .as_array()
        .expect("rulesets")
        .iter()
        .map(|r| r["slug"].as_str().expect("a slug").to_owned())
        .collect();
    assert_eq!(slugs.len(), 3);
    for slug in &slugs {
        let rules = app.get(&format!("/v1/rulesets/{slug}/rules"), None).await;
        assert_eq!(rules.status, 200, "{}", rules.body);
        assert_eq!(rules.header("content-type"), Some("application/json"));
        assert_eq!(rules.json["ruleset"], slug.as_str());
        let list = rules.json["rules"].as_array().expect("rules");
        let ids: BTreeSet<&str> = list.iter().map(|r| r["id"].as_str().expect("an id")).collect();
        assert_eq!(ids.len(), list.len(), "{slug}: ids repeat");
        for rule in list {
            assert!(rule["title"].as_str().is_some_and(|t| !t.is_empty()), "{rule}");
            assert!(rule["text"].as_str().is_some_and(|t| t.len() > 20), "{rule}");
        }
        for part in ["goal", "setup", "turn", "end", "scoring"] {
            assert!(ids.contains(part), "{slug}: no {part} in the overview");
        }
        let mut wanted = BTreeSet::new();
        cited(&rules.json, &mut wanted);
        let detail = app.get(&format!("/v1/rulesets/{slug}"), None).await;
        assert!(
            detail.json["messages"]
                .as_object()
                .is_some_and(|m| m.contains_key("clock_expired"))
        );
        cited(&detail.json, &mut wanted);
        let components = app.get(&format!("/v1/rulesets/{slug}/components"), None).await;
        cited(&components.json, &mut wanted);
        let own = prefix(slug);
        for (name, schema) in document["components"]["schemas"].as_object().expect("schemas") {
            if name.starts_with(&own) {
                cited(schema, &mut wanted);
            }
        }
        assert!(wanted.len() > 20, "{slug}: only {wanted:?} cited");
        let unresolved: Vec<&String> = wanted.iter().filter(|id| !ids.contains(id.as_str())).collect();
        assert!(
            unresolved.is_empty(),
            "{slug}: cited but not served: {unresolved:?}"
        );
        let see: BTreeSet<&str> = list
            .iter()
            .flat_map(|r| r["see"].as_array().into_iter().flatten())
            .filter_map(Value::as_str)
            .collect();
        assert!(!see.is_empty(), "{slug}: no rule refers to another");
    }
    let unknown = app.get("/v1/rulesets/no-such-game/rules", None).await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.code(), "ruleset_not_found");
    assert!(
        unknown.json["detail"]
            .as_str()
            .is_some_and(|d| d.contains("no-such-game")),
        "{}",
        unknown.body
    );
}
