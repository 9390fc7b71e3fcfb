//! The API's documents: the served OpenAPI equals the committed one, and Swagger UI, opened in
//! headless Chromium, lists every endpoint and runs its prefilled examples when clicked.

use std::process::Command;

use serde_json::Value;

use crate::browser::{Browser, Driver};
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

/// Swagger UI as a person uses it, clicked through in headless Chromium over the WebDriver
/// protocol (`/usr/bin/chromedriver`): for every ruleset, pick its example and execute the
/// prefilled create, authorize with the seat that acts, then execute the prefilled post.
#[test]
fn swagger_ui_executes_the_prefilled_create_and_post_of_every_ruleset() {
    let roadie = Roadie::start("swagger_clicks", None, &[]);
    let driver = Driver::start();
    let browser = driver.browser("swagger_clicks", (1400, 4000));
    browser.open(&roadie.url("/swagger-ui/"));
    for ruleset in crate::support::rulesets(&roadie) {
        let slug = ruleset.0;
        let create = "#operations-games-create_game";
        browser.open_operation(create);
        browser.choose_example(create, &slug);
        let created: Value = browser.execute(create, "201");
        let id = created["id"].as_str().expect("the created game's id").to_owned();
        assert_eq!(created["ruleset"], slug.as_str(), "{created}");
        let game = roadie.get(&format!("/v1/games/{id}"), None);
        let seat = game.json["to_act"][0].as_u64().expect("a seat to act") as usize;
        let token = created["seats"][seat]["token"].as_str().expect("token");
        browser.authorize("seat_token", token);

        let post = "#operations-games-post_action";
        browser.open_operation(post);
        browser.choose_example(post, &slug);
        browser.type_into(&format!("{post} tr[data-param-name=\"id\"] input"), &id);
        let result: Value = browser.execute(post, "200");
        assert_eq!(result["version"], 2, "{result}");
        browser.logout("seat_token");
        browser.close_operation(create);
        browser.close_operation(post);
    }
}

/// Swagger UI's controls, as a person clicks them.
trait SwaggerUi {
    /// Expands `operation` and turns on "Try it out".
    fn open_operation(&self, operation: &str);
    /// Turns "Try it out" off and folds `operation`.
    fn close_operation(&self, operation: &str);
    /// Picks the request body example named `name` (Swagger UI prefills the body with it).
    fn choose_example(&self, operation: &str, name: &str);
    /// Clicks Execute and returns the response body, once the response has `status`.
    fn execute(&self, operation: &str, status: &str) -> Value;
    /// Enters `token` for the security scheme `scheme` in the Authorize dialog.
    fn authorize(&self, scheme: &str, token: &str);
    /// Removes the token of `scheme` in the Authorize dialog.
    fn logout(&self, scheme: &str);
}

impl SwaggerUi for Browser<'_> {
    fn open_operation(&self, operation: &str) {
        self.click(&format!("{operation} .opblock-summary-control"));
        self.click(&format!("{operation} .try-out__btn"));
    }

    fn close_operation(&self, operation: &str) {
        self.click(&format!("{operation} .try-out__btn.cancel"));
        self.click(&format!("{operation} .opblock-summary-control"));
    }

    fn choose_example(&self, operation: &str, name: &str) {
        self.click(&format!(
            "{operation} .opblock-section-request-body select.examples-select-element option[value=\"{name}\"]"
        ));
    }

    fn execute(&self, operation: &str, status: &str) -> Value {
        self.click(&format!("{operation} .btn.execute"));
        let shown = self.text(&format!(
            "{operation} .live-responses-table .response .response-col_status"
        ));
        let body = self.text(&format!(
            "{operation} .live-responses-table .response-col_description pre.microlight"
        ));
        assert_eq!(shown.trim(), status, "Swagger UI's answer: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
    }

    fn authorize(&self, scheme: &str, token: &str) {
        let form = format!("//div[contains(@class,'modal-ux')]//form[.//h4/code[text()='{scheme}']]");
        self.click(".auth-wrapper button.authorize");
        self.type_into(&format!("{form}//input[@aria-label='auth-bearer-value']"), token);
        self.click(&format!("{form}//button[@aria-label='Apply credentials']"));
        self.click(&format!("{form}//button[contains(@class,'btn-done')]"));
    }

    fn logout(&self, scheme: &str) {
        let form = format!("//div[contains(@class,'modal-ux')]//form[.//h4/code[text()='{scheme}']]");
        self.click(".auth-wrapper button.authorize");
        self.click(&format!("{form}//button[@aria-label='Remove authorization']"));
        self.click(&format!("{form}//button[contains(@class,'btn-done')]"));
    }
}
