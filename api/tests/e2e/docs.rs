//! The API's documents: the served OpenAPI equals the committed one, and Swagger UI, opened in
//! headless Chromium, lists every endpoint.

use std::process::Command;

use serde_json::Value;

use crate::support::{Roadie, ensure_installed, scratch};

#[test]
fn the_served_openapi_document_is_the_committed_one() {
    let roadie = Roadie::start("openapi", None, &[]);
    let served = roadie.get("/api-docs/openapi.json", None);
    assert_eq!(served.status, 200);
    let committed: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json"))
            .expect("committed"),
    )
    .expect("committed JSON");
    assert_eq!(
        served.json, committed,
        "openapi/openapi.json is not what the server serves"
    );
    let rulesets = roadie.get("/v1/rulesets", None);
    for ruleset in rulesets.json["rulesets"].as_array().expect("rulesets") {
        let slug = ruleset["slug"].as_str().expect("slug");
        let documented = &committed["x-roadie-rulesets"][slug];
        assert!(
            documented["machine"]["phases"].is_array(),
            "{slug}'s phase machine is not documented"
        );
        let detail = roadie.get(&format!("/v1/rulesets/{slug}"), None);
        assert_eq!(detail.json["machine"], documented["machine"]);
        assert!(
            detail.json["mermaid"]
                .as_str()
                .is_some_and(|m| m.starts_with("stateDiagram-v2"))
        );
    }
}

#[test]
fn swagger_ui_in_headless_chromium_lists_every_endpoint() {
    ensure_installed("/usr/bin/chromium", "chromium");
    let roadie = Roadie::start("swagger", None, &[]);
    let doc = roadie.get("/api-docs/openapi.json", None);
    let paths: Vec<String> = doc.json["paths"]
        .as_object()
        .expect("paths")
        .keys()
        .cloned()
        .collect();
    assert!(paths.len() >= 9, "{paths:?}");
    let profile = scratch("swagger_chromium");
    let output = Command::new("/usr/bin/chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--virtual-time-budget=20000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(roadie.url("/swagger-ui/"))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&output.stdout);
    assert!(
        dom.contains("swagger-ui"),
        "no Swagger UI in the page: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    for path in &paths {
        assert!(
            dom.contains(&format!("data-path=\"{path}\"")),
            "Swagger UI does not list {path}"
        );
    }
}
