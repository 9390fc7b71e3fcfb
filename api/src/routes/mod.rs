//! One module per resource; each has a `configure` that mounts its routes.

pub mod games;
pub mod health;
pub mod rulesets;

use actix_web::{HttpRequest, web};

use crate::error::ApiError;

/// The pattern of the resource that served a request, kept with it so the metrics need not
/// match the path a second time.
#[derive(Clone, Copy, Debug)]
pub struct Route(pub &'static str);

/// A resource whose other methods get a `405` problem instead of an empty response.
pub fn resource(path: &'static str) -> actix_web::Resource {
    web::resource(path)
        .app_data(Route(path))
        .default_service(web::to(method_not_allowed))
}

async fn method_not_allowed(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(req.method().to_string()))
}

/// The answer for a path no route knows.
pub async fn not_found(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    Err(ApiError::NotFound {
        code: "route_not_found",
        detail: format!("no route is {} {}", req.method(), req.path()),
    })
}
