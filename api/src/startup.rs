//! Builds the service from a [`Config`] and a bound [`TcpListener`] (tests bind port 0).

use std::future::Future;
use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Server, Service, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::{App, HttpResponse, HttpServer, web};
use secrecy::ExposeSecret;
use utoipa_swagger_ui::SwaggerUi;

use crate::apps::Registry;
use crate::archive::Archive;
use crate::config::Config;
use crate::http::body::BodyLimits;
use crate::http::limits::Limits;
use crate::http::{openapi, problem, routes};
use crate::metrics::Metrics;
use crate::records::RecordKeys;
use crate::service::Games;
use crate::service::headroom::Headroom;
use crate::service::rules::RulesServed;
use crate::shutdown::Draining;
use crate::store::{self, GameStore, MemoryStore, Retention, StoreError};
use crate::tokens::{KeyError, Keys};

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Listening failed.
    #[error("cannot listen: {0}")]
    Io(#[from] std::io::Error),
    /// The store could not be set up.
    #[error("cannot reach the store: {0}")]
    Store(#[from] StoreError),
    /// The JWT secret is unusable.
    #[error(transparent)]
    Keys(#[from] KeyError),
    /// The apps file cannot be used.
    #[error(transparent)]
    Apps(#[from] crate::apps::AppsError),
    /// No HTTP client for webhooks could be made.
    #[error("cannot make the webhook client: {0}")]
    Webhooks(#[from] reqwest::Error),
    /// The key that signs game records cannot be used.
    #[error("ROADIE_RECORD_KEY: {0}")]
    RecordKey(String),
    /// A rules version declared is not usable.
    #[error("ROADIE_RULES_VERSIONS: {0}")]
    Rules(String),
    /// The archive cannot be opened.
    #[error("ROADIE_ARCHIVE_URL: {0}")]
    Archive(#[from] crate::archive::ArchiveError),
}

/// How long one request to the archive may take, and its connection.
const ARCHIVE_TIMEOUT: Duration = Duration::from_secs(10);
const ARCHIVE_CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// A built, not yet running, service.
pub struct Application {
    server: Server,
    port: u16,
}

/// The route pattern that served `req`, for the metrics: the [`routes::Route`] its resource
/// carries, else (the docs, redirects) the pattern matched again, else `unmatched`.
fn route_of(req: &actix_web::HttpRequest) -> std::borrow::Cow<'static, str> {
    match req.app_data::<routes::Route>() {
        Some(route) => route.0.into(),
        None => req
            .match_pattern()
            .unwrap_or_else(|| "unmatched".to_owned())
            .into(),
    }
}

/// Cross-origin calls from pages of `origins` (and of the service's own origin): preflights are
/// answered for every method a route takes and every request header the document names, and the
/// headers a client reads are exposed.
fn cors(origins: Arc<Vec<String>>, request_headers: &[header::HeaderName]) -> actix_cors::Cors {
    let mut methods: Vec<&str> = routes::ROUTES
        .iter()
        .flat_map(|(_, methods)| methods.iter().copied())
        .collect();
    methods.sort_unstable();
    methods.dedup();
    actix_cors::Cors::default()
        .allowed_origin_fn(move |origin, head| {
            let origin = origin.to_str().unwrap_or_default();
            let same = head
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .is_some_and(|host| origin.ends_with(&format!("://{host}")));
            same || origins.iter().any(|allowed| allowed == origin)
        })
        .allowed_methods(methods)
        .allowed_headers(request_headers.to_vec())
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::RETRY_AFTER,
            header::ALLOW,
            header::HeaderName::from_static("idempotent-replayed"),
            header::HeaderName::from_static("preference-applied"),
        ])
        .max_age(3600)
}

/// Every request header a client of the document may send: `Authorization` (its security
/// schemes), `Content-Type` (its bodies) and each header parameter (`If-Match`,
/// `Last-Event-ID`...).
fn request_headers(document: &utoipa::openapi::OpenApi) -> Vec<header::HeaderName> {
    let document = serde_json::to_value(document).unwrap_or_default();
    let parameters = document["paths"]
        .as_object()
        .into_iter()
        .flat_map(|paths| paths.values())
        .filter_map(serde_json::Value::as_object)
        .flat_map(|item| item.values())
        .filter_map(|operation| operation["parameters"].as_array())
        .flatten()
        .filter(|parameter| parameter["in"] == "header")
        .filter_map(|parameter| header::HeaderName::try_from(parameter["name"].as_str()?).ok());
    let mut names: Vec<header::HeaderName> = [header::AUTHORIZATION, header::CONTENT_TYPE]
        .into_iter()
        .chain(parameters)
        .collect();
    names.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
    names.dedup();
    names
}

/// `HEAD` is answered wherever `GET` is, "identical to GET except that the server MUST NOT send
/// content in the response" (RFC 9110, 9.3.2): the request is served as a `GET`, and the server
/// sends the answer's head only. A streamed body (the push stream) is dropped unread.
fn head_as_get<S, B>(
    mut req: ServiceRequest,
    srv: &S,
) -> impl Future<Output = Result<ServiceResponse, actix_web::Error>> + use<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    let head = req.method() == Method::HEAD;
    if head {
        req.head_mut().method = Method::GET;
    }
    let call = srv.call(req);
    async move {
        let response = call.await?.map_into_boxed_body();
        Ok(if head {
            response.map_body(|_, body| match body.size() {
                BodySize::Stream => BoxBody::new(actix_web::body::None::new()),
                _ => body,
            })
        } else {
            response
        })
    }
}

/// Open files kept for the store's connections, logs and the like.
const RESERVED_FILES: u64 = 128;

/// Connections each of `workers` may hold: the process's open-file limit (raised to its hard
/// limit first) shared among them, less a reserve, so that clients alone can never exhaust the
/// process's file descriptors.
fn connections_per_worker(workers: usize) -> usize {
    let limit = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the open-file limit");
            1024
        }
    };
    let usable = limit.saturating_sub(RESERVED_FILES).max(64);
    let per_worker = usable / (workers.max(1) as u64);
    usize::try_from(per_worker)
        .unwrap_or(usize::MAX)
        .clamp(16, 25_000)
}

impl Application {
    /// Binds `config.http.addr` and builds.
    pub async fn build(config: Config) -> Result<Self, StartError> {
        let listener = TcpListener::bind(&config.http.addr)?;
        Self::build_with_listener(config, listener).await
    }

    /// Builds on an already bound listener.
    pub async fn build_with_listener(config: Config, listener: TcpListener) -> Result<Self, StartError> {
        let port = listener.local_addr()?.port();
        if config.tokens.jwt_secret_generated {
            tracing::warn!(
                "ROADIE_JWT_SECRET is unset: signing with a random secret made at start; \
                 tokens will not survive a restart or work on other instances"
            );
        }
        let archive = config
            .records
            .archive_url
            .as_deref()
            .map(|url| {
                Archive::builder(url)
                    .timeout(ARCHIVE_TIMEOUT)
                    .connect_timeout(ARCHIVE_CONNECT_TIMEOUT)
                    .retries(2, ARCHIVE_TIMEOUT)
                    .build()
            })
            .transpose()?;
        // With an archive, a finished game keeps a running game's lifetime until the archive
        // holds it; the archiver then gives it the finished games' one.
        let retention = Retention {
            idle: config.store.game_ttl,
            finished: if archive.is_some() {
                config.store.game_ttl
            } else {
                config.store.finished_ttl
            },
        };
        // The shards name the keys of every index of due work: set before the store is used.
        store::set_due_shards(config.store.due_shards);
        let store: Arc<dyn GameStore> = match &config.store.redis_url {
            Some(url) => {
                store::redis::connect(
                    url.expose_secret(),
                    retention,
                    config.store.create_limit_percent,
                    config.store.timeout,
                )
                .await?
            }
            None => {
                tracing::info!("ROADIE_REDIS_URL is unset: games are kept in memory and lost at exit");
                let memory = Arc::new(MemoryStore::new(retention));
                let sweeper = memory.clone();
                actix_web::rt::spawn(async move {
                    let mut tick = tokio::time::interval(Duration::from_secs(60));
                    loop {
                        tick.tick().await;
                        if let Ok(n) = sweeper.sweep()
                            && n > 0
                        {
                            tracing::info!(expired = n, "forgot expired games");
                        }
                    }
                });
                memory
            }
        };
        let keys = Arc::new(Keys::new(
            config.tokens.jwt_secret.expose_secret(),
            config.tokens.ttl,
            config.tokens.cache,
        )?);
        let apps = Arc::new(match &config.apps {
            Some(path) => Registry::load(path.clone())?,
            None => Registry::open(),
        });
        Registry::reload_on_hangup(&apps)?;
        let record_keys = Arc::new(match &config.records.key {
            Some(path) => RecordKeys::load(&path.to_string_lossy()).map_err(StartError::RecordKey)?,
            None => {
                let made = RecordKeys::generate();
                tracing::warn!(kid = %made.kid(), "ROADIE_RECORD_KEY is unset: game records are signed with a key made at start, which this process alone holds and forgets when it stops");
                made
            }
        });
        let metrics = Arc::new(Metrics::default());
        Metrics::keep_up(&metrics);
        let headroom = Arc::new(Headroom::new(config.store.create_limit_percent));
        Headroom::watch(headroom.clone(), store.clone());
        let limits = Arc::new(Limits::new(config.limits.clone()));
        let sweeper = Arc::downgrade(&limits);
        actix_web::rt::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                match sweeper.upgrade() {
                    Some(limits) => limits.sweep(),
                    None => return,
                }
            }
        });
        // The in-memory store holds the decoded games already: a copy of them would only cost.
        let cached_games = if config.store.redis_url.is_some() {
            config.store.cache_games
        } else {
            0
        };
        let mut service = Games::new(
            store.clone(),
            keys.clone(),
            metrics.clone(),
            headroom.clone(),
            config.store.cas_retries,
            cached_games,
        )
        .with_webhooks(Arc::new(config.webhooks.clone()))
        .with_matching(crate::service::MatchConfig {
            ticket_ttl: config.store.ticket_ttl,
            lease: config.store.ticket_lease,
            window: config.ratings.match_window,
        })
        .with_bots(config.bots)
        .with_record_keys(record_keys)
        .with_rules(RulesServed::with_overrides(&config.rules_versions).map_err(StartError::Rules)?);
        if let Some(archive) = archive {
            service = service.with_archiving(crate::service::archiving::Archiving {
                archive,
                finished_ttl: config.store.finished_ttl,
                lease: config.records.archive_lease,
                sweep: config.records.archive_sweep,
            });
        }
        let games = web::Data::new(service);
        crate::service::webhooks::spawn(store.clone(), config.webhooks.clone(), metrics.clone())?;
        crate::service::sweeper::spawn_sweeper(games.clone().into_inner(), config.store.clock_sweep);
        crate::service::matching::spawn_ticket_sweeper(games.clone().into_inner(), config.store.ticket_sweep);
        crate::service::bots::spawn_bot_workers(games.clone().into_inner());
        crate::service::archiving::spawn_archiver(games.clone().into_inner());
        crate::service::ratings::spawn_rater(
            games.clone().into_inner(),
            crate::service::ratings::RatingConfig {
                sweep: config.ratings.sweep,
                lease: config.ratings.lease,
            },
        );
        crate::service::reconciler::spawn_reconciler(games.clone().into_inner(), config.repair_every);
        let keys = web::Data::from(keys);
        let apps = web::Data::from(apps);
        let metrics = web::Data::from(metrics);
        let headroom = web::Data::from(headroom);
        let limits = web::Data::from(limits);
        let connection_limits = limits.clone();
        let body_limits = web::Data::new(BodyLimits {
            max_bytes: config.http.body_limit,
            record_bytes: config.records.max_bytes,
            deadline: config.http.body_timeout,
        });
        let workers = config
            .http
            .workers
            .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
        let max_connections = config
            .http
            .max_connections
            .unwrap_or_else(|| connections_per_worker(workers));
        tracing::info!(store = store.kind(), port, ?config, "roadie listening");

        let draining = Arc::new(Draining::default());
        let stop_signal = crate::shutdown::on_signal(draining.clone())?;
        let draining = web::Data::from(draining);
        let cors_origins = std::sync::Arc::new(config.http.cors_origins.clone());
        let document = openapi::document();
        let cors_headers = request_headers(&document);
        let server = HttpServer::new(move || {
            let metrics_mw = metrics.clone();
            let limits_mw = limits.clone();
            App::new()
                .app_data(games.clone())
                .app_data(keys.clone())
                .app_data(apps.clone())
                .app_data(metrics.clone())
                .app_data(headroom.clone())
                .app_data(limits.clone())
                .app_data(body_limits.clone())
                .app_data(draining.clone())
                .app_data(web::QueryConfig::default().error_handler(|err, req| {
                    problem::query_error(err, req.path(), req.query_string()).into()
                }))
                .app_data(web::PathConfig::default().error_handler(|err, _| problem::path_error(err).into()))
                .wrap_fn(head_as_get)
                .wrap_fn(move |req, srv| {
                    let metrics = metrics_mw.clone();
                    let start = Instant::now();
                    let method = req.method().clone();
                    let admitted = limits_mw.admit_connection(&req);
                    let call = match admitted {
                        Ok(()) => Ok(srv.call(req)),
                        Err(refusal) => Err(req.error_response(refusal)),
                    };
                    async move {
                        let response = match call {
                            Ok(call) => call.await,
                            Err(refused) => {
                                metrics.rate_limited();
                                Ok(refused)
                            }
                        };
                        let (status, route) = match &response {
                            Ok(r) => (r.status().as_u16(), route_of(r.request())),
                            Err(e) => (e.as_response_error().status_code().as_u16(), "unmatched".into()),
                        };
                        let took = start.elapsed();
                        metrics.observe_request(&route, &method, status, took);
                        if status >= 500 {
                            tracing::warn!(%method, route = %route, status, ?took, "request failed");
                        } else {
                            tracing::debug!(%method, route = %route, status, ?took, "request");
                        }
                        response
                    }
                })
                .wrap(actix_web::middleware::Condition::new(
                    !cors_origins.is_empty(),
                    cors(cors_origins.clone(), &cors_headers),
                ))
                .configure(routes::configure)
                .configure(crate::http::web::configure)
                .service(SwaggerUi::new("/swagger-ui/{_:.*}").url("/api-docs/openapi.json", document.clone()))
                .route(
                    "/swagger-ui",
                    web::get().to(|| async {
                        HttpResponse::PermanentRedirect()
                            .insert_header((header::LOCATION, "/swagger-ui/"))
                            .finish()
                    }),
                )
                .route(
                    "/",
                    web::get().to(|| async {
                        HttpResponse::Found()
                            .insert_header((header::LOCATION, "/swagger-ui/"))
                            .finish()
                    }),
                )
                .default_service(web::to(routes::not_found))
        })
        .on_connect(move |connection, data| connection_limits.on_connect(connection, data))
        .client_request_timeout(config.http.header_timeout)
        .max_connections(max_connections)
        .shutdown_timeout(config.http.shutdown_timeout)
        .shutdown_signal(stop_signal)
        .workers(workers)
        .listen(listener)?;
        tracing::info!(workers, max_connections, "connections per worker");
        Ok(Self {
            server: server.run(),
            port,
        })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGINT or SIGTERM, then ends the push streams with a `reconnect` message and
    /// finishes the other requests in flight.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}
