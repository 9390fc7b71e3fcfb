//! The archive of finished games: each game's record and its event log, kept as objects in a
//! store that outlives Redis (an S3 bucket, or a directory), written once a game is over and read
//! back by id.
//!
//! A game `<id>` is three objects under the archive's prefix:
//!
//! - `games/<id>/game.json`: the game's final state, as a spectator saw it;
//! - `games/<id>/events.ndjson.gz`: the event log, one JSON value a line, gzipped;
//! - `games/<id>/record.json`: the record (`roadie.record/1`), written last, so a game whose
//!   record is there was archived whole.
//!
//! [`Archive::from_url`] opens one from `ROADIE_ARCHIVE_URL`'s kind of URL, taking the S3
//! endpoint, region and keys from the `AWS_*` environment; [`Archive::builder`] takes them
//! explicitly and bounds how long a request may take.

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::prefix::PrefixStore;
use object_store::{BackoffConfig, ClientConfigKey, ObjectStore, PutPayload, RetryConfig};
use url::Url;

/// The region an S3 archive names when none is configured.
pub const DEFAULT_REGION: &str = "us-east-1";

/// Why the archive could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The archive's URL, or an option given with it, names no store this can open.
    #[error("archive URL: {0}")]
    Url(String),
    /// The id is not a game id (24 lowercase hex digits), so it names no object.
    #[error("not a game id: {0:?}")]
    InvalidId(String),
    /// The store did not answer, or answered with an error other than "no such object".
    #[error("archive unavailable: {0}")]
    Unavailable(String),
    /// A stored event log is not gzip.
    #[error("archived object corrupt: {0}")]
    Corrupt(String),
}

/// Finished games' records and event logs in an object store.
#[derive(Clone, Debug)]
pub struct Archive {
    store: Arc<dyn ObjectStore>,
    description: String,
}

/// How an [`Archive`] is opened: its URL, whether the `AWS_*` environment is read, S3 options
/// that override it, and how long a request may take and be retried.
#[derive(Clone, Debug)]
pub struct ArchiveBuilder {
    url: String,
    from_env: bool,
    options: Vec<(String, String)>,
    timeout: Option<Duration>,
    connect_timeout: Option<Duration>,
    retry: Option<RetryConfig>,
}

impl ArchiveBuilder {
    /// S3 settings read from the `AWS_*` environment (`AWS_ENDPOINT_URL` or `AWS_ENDPOINT`,
    /// `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, ...) when
    /// `true`, the default; none when `false`, so only [`Self::option`]s count.
    pub fn from_env(mut self, read: bool) -> Self {
        self.from_env = read;
        self
    }

    /// One S3 setting, under any name `object_store` knows for it (`endpoint`,
    /// `aws_endpoint_url`, `region`, `access_key_id`, `secret_access_key`, `timeout`, ...); it
    /// overrides the environment. A `file://` archive ignores them.
    pub fn option(mut self, key: &str, value: &str) -> Self {
        self.options.push((key.to_owned(), value.to_owned()));
        self
    }

    /// The longest one S3 request may take, from connecting to the last byte of its answer
    /// (`object_store`'s default is 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The longest connecting to the S3 endpoint may take (`object_store`'s default is 5 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    /// How often a failed S3 request is tried again, and for how long at most after the first
    /// try (`object_store`'s default is 10 times within 3 minutes). The pause between tries starts
    /// at 100 ms and doubles, up to 1 s.
    pub fn retries(mut self, max_retries: usize, retry_timeout: Duration) -> Self {
        self.retry = Some(RetryConfig {
            backoff: BackoffConfig {
                init_backoff: Duration::from_millis(100),
                max_backoff: Duration::from_secs(1),
                base: 2.0,
            },
            max_retries,
            retry_timeout,
        });
        self
    }

    /// Opens the archive: `file:///absolute/dir` (created when missing) or
    /// `s3://bucket/optional/prefix`.
    pub fn build(self) -> Result<Archive, ArchiveError> {
        let url = Url::parse(&self.url)
            .map_err(|e| ArchiveError::Url(format!("{:?} is not a URL: {e}", self.url)))?;
        match url.scheme() {
            "file" => self.open_dir(&url),
            "s3" => self.open_s3(&url),
            other => Err(ArchiveError::Url(format!(
                "scheme {other:?} is not supported: use file:///absolute/dir or s3://bucket/prefix"
            ))),
        }
    }

    fn open_dir(&self, url: &Url) -> Result<Archive, ArchiveError> {
        if url.host_str().is_some_and(|h| !h.is_empty() && h != "localhost") {
            return Err(ArchiveError::Url(format!(
                "{url} names a host: a file URL must be file:///absolute/dir"
            )));
        }
        let dir = url
            .to_file_path()
            .map_err(|()| ArchiveError::Url(format!("{url} is not an absolute directory")))?;
        std::fs::create_dir_all(&dir)
            .map_err(|e| ArchiveError::Unavailable(format!("cannot create {}: {e}", dir.display())))?;
        let store = LocalFileSystem::new_with_prefix(&dir)
            .map_err(|e| ArchiveError::Unavailable(format!("cannot open {}: {e}", dir.display())))?;
        Ok(Archive {
            store: Arc::new(store),
            description: format!("file://{}", dir.display()),
        })
    }

    fn open_s3(&self, url: &Url) -> Result<Archive, ArchiveError> {
        let bucket = url.host_str().unwrap_or_default();
        if bucket.is_empty() {
            return Err(ArchiveError::Url(format!(
                "{url} names no bucket: use s3://bucket/prefix"
            )));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(ArchiveError::Url(format!(
                "{url} has a query or fragment: settings go in the AWS_* environment"
            )));
        }
        let prefix = url.path().trim_matches('/').to_owned();

        let mut s3 = if self.from_env {
            AmazonS3Builder::from_env()
        } else {
            AmazonS3Builder::new()
        };
        for (key, value) in &self.options {
            let key = key
                .to_ascii_lowercase()
                .parse::<AmazonS3ConfigKey>()
                .map_err(|e| ArchiveError::Url(format!("unknown S3 option {key:?}: {e}")))?;
            s3 = s3.with_config(key, value);
        }
        s3 = s3
            .with_bucket_name(bucket)
            .with_virtual_hosted_style_request(false);
        if s3.get_config_value(&AmazonS3ConfigKey::Region).is_none() {
            s3 = s3.with_region(DEFAULT_REGION);
        }
        let endpoint = s3.get_config_value(&AmazonS3ConfigKey::Endpoint);
        if endpoint.as_deref().is_some_and(|e| e.starts_with("http://")) {
            s3 = s3.with_allow_http(true);
        }
        if let Some(timeout) = self.timeout {
            s3 = s3.with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
                format!("{}ms", timeout.as_millis()),
            );
        }
        if let Some(timeout) = self.connect_timeout {
            s3 = s3.with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
                format!("{}ms", timeout.as_millis()),
            );
        }
        if let Some(retry) = self.retry.clone() {
            s3 = s3.with_retry(retry);
        }
        let store = s3
            .build()
            .map_err(|e| ArchiveError::Url(format!("cannot open {url}: {e}")))?;

        let mut description = format!("s3://{bucket}");
        if !prefix.is_empty() {
            description.push('/');
            description.push_str(&prefix);
        }
        if let Some(endpoint) = endpoint {
            description.push_str(" at ");
            description.push_str(&without_credentials(&endpoint));
        }
        let store: Arc<dyn ObjectStore> = if prefix.is_empty() {
            Arc::new(store)
        } else {
            Arc::new(PrefixStore::new(store, prefix.as_str()))
        };
        Ok(Archive { store, description })
    }
}

impl Archive {
    /// Opens the archive at `url` (`file:///absolute/dir` or `s3://bucket/optional/prefix`),
    /// with S3 settings from the `AWS_*` environment and `object_store`'s timeouts.
    pub fn from_url(url: &str) -> Result<Archive, ArchiveError> {
        Self::builder(url).build()
    }

    /// Opens the archive at `url` with exactly these S3 settings (see [`ArchiveBuilder::option`])
    /// and none from the environment.
    pub fn from_url_with(url: &str, options: &[(&str, &str)]) -> Result<Archive, ArchiveError> {
        options
            .iter()
            .fold(Self::builder(url).from_env(false), |b, (k, v)| b.option(k, v))
            .build()
    }

    /// A builder for the archive at `url`, reading the environment unless told not to.
    pub fn builder(url: &str) -> ArchiveBuilder {
        ArchiveBuilder {
            url: url.to_owned(),
            from_env: true,
            options: Vec::new(),
            timeout: None,
            connect_timeout: None,
            retry: None,
        }
    }

    /// Where the archive is, for logs: its URL and endpoint, without credentials.
    pub fn describe(&self) -> String {
        self.description.clone()
    }

    /// Archives game `id`: its event log (NDJSON, gzipped here) and then its record (JSON, as
    /// given). Archiving the same game again writes the same objects over them.
    pub async fn put_game(
        &self,
        id: &str,
        record_json: &[u8],
        events_ndjson: &[u8],
    ) -> Result<(), ArchiveError> {
        let (record, events) = (record_path(id)?, events_path(id)?);
        let gzipped = gzip(events_ndjson)?;
        self.put(&events, gzipped).await?;
        self.put(&record, record_json.to_vec()).await
    }

    /// Writes game `id`'s final state as a spectator saw it (JSON), before [`Archive::put_game`]:
    /// what a read of the archived game answers.
    pub async fn put_state(&self, id: &str, state_json: &[u8]) -> Result<(), ArchiveError> {
        self.put(&state_path(id)?, state_json.to_vec()).await
    }

    /// Game `id`'s final state, as it was archived; `None` when it is not archived.
    pub async fn state(&self, id: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        self.get(&state_path(id)?).await
    }

    /// Game `id`'s record, as it was archived; `None` when the game is not archived.
    pub async fn record(&self, id: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        self.get(&record_path(id)?).await
    }

    /// Game `id`'s event log, decompressed NDJSON; `None` when it is not archived.
    pub async fn events(&self, id: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        match self.get(&events_path(id)?).await? {
            Some(gzipped) => gunzip(&gzipped).map(Some),
            None => Ok(None),
        }
    }

    /// Whether game `id` is archived whole (its record is there).
    pub async fn has(&self, id: &str) -> Result<bool, ArchiveError> {
        match self.store.head(&record_path(id)?).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(unavailable(e)),
        }
    }

    async fn put(&self, path: &Path, bytes: Vec<u8>) -> Result<(), ArchiveError> {
        self.store
            .put(path, PutPayload::from(bytes))
            .await
            .map(drop)
            .map_err(unavailable)
    }

    async fn get(&self, path: &Path) -> Result<Option<Vec<u8>>, ArchiveError> {
        let got = match self.store.get(path).await {
            Ok(got) => got,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(unavailable(e)),
        };
        match got.bytes().await {
            Ok(bytes) => Ok(Some(bytes.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }
}

fn unavailable(e: object_store::Error) -> ArchiveError {
    ArchiveError::Unavailable(e.to_string())
}

/// Game `id`'s folder, once `id` is known to be 24 lowercase hex digits.
fn game_dir(id: &str) -> Result<String, ArchiveError> {
    let hex = |c: u8| c.is_ascii_digit() || (b'a'..=b'f').contains(&c);
    if id.len() == 24 && id.bytes().all(hex) {
        Ok(format!("games/{id}"))
    } else {
        Err(ArchiveError::InvalidId(id.to_owned()))
    }
}

fn record_path(id: &str) -> Result<Path, ArchiveError> {
    Ok(Path::from(format!("{}/record.json", game_dir(id)?)))
}

fn state_path(id: &str) -> Result<Path, ArchiveError> {
    Ok(Path::from(format!("{}/game.json", game_dir(id)?)))
}

fn events_path(id: &str) -> Result<Path, ArchiveError> {
    Ok(Path::from(format!("{}/events.ndjson.gz", game_dir(id)?)))
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>, ArchiveError> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_err(|e| ArchiveError::Corrupt(format!("cannot gzip the event log: {e}")))
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, ArchiveError> {
    let mut out = Vec::new();
    GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| ArchiveError::Corrupt(format!("event log is not gzip: {e}")))?;
    Ok(out)
}

/// `url` with any user name and password taken out.
fn without_credentials(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut parsed) if !parsed.username().is_empty() || parsed.password().is_some() => {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
            let cleaned = parsed.to_string();
            match url.ends_with('/') {
                true => cleaned,
                false => cleaned.trim_end_matches('/').to_owned(),
            }
        }
        Ok(_) => url.to_owned(),
        Err(_) => "an unparsable endpoint".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "0123456789abcdef01234567";
    const OTHER: &str = "fedcba9876543210fedcba98";

    /// An empty directory under the system's temp dir, removed when dropped.
    struct TempDir(std::path::PathBuf);

    impl TempDir {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "roadie-archive-{name}-{}-{:x}",
                std::process::id(),
                rand::random::<u64>()
            ));
            TempDir(dir)
        }

        fn url(&self) -> String {
            format!("file://{}", self.0.display())
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn events() -> Vec<u8> {
        (0..200)
            .map(|i| format!("{{\"seq\":{i},\"kind\":\"played\",\"seat\":{}}}\n", i % 4))
            .collect::<String>()
            .into_bytes()
    }

    #[tokio::test]
    async fn a_game_comes_back_as_it_was_put() {
        let dir = TempDir::new("round-trip");
        let archive = Archive::from_url(&dir.url()).expect("open the archive");
        let record = br#"{"format":"roadie.record/1","game":"0123456789abcdef01234567"}"#;
        assert!(!archive.has(GAME).await.expect("has"));

        archive.put_game(GAME, record, &events()).await.expect("put_game");
        assert!(archive.has(GAME).await.expect("has"));
        assert_eq!(
            archive.record(GAME).await.expect("record").as_deref(),
            Some(&record[..])
        );
        assert_eq!(archive.events(GAME).await.expect("events"), Some(events()));

        archive.put_game(GAME, record, &events()).await.expect("put_game");
        assert_eq!(
            archive.record(GAME).await.expect("record").as_deref(),
            Some(&record[..])
        );
        assert_eq!(archive.describe(), dir.url());
    }

    #[tokio::test]
    async fn a_game_never_put_is_absent() {
        let dir = TempDir::new("absent");
        let archive = Archive::from_url(&dir.url()).expect("open the archive");
        archive.put_game(GAME, b"{}", b"").await.expect("put_game");
        assert_eq!(archive.record(OTHER).await.expect("record"), None);
        assert_eq!(archive.events(OTHER).await.expect("events"), None);
        assert!(!archive.has(OTHER).await.expect("has"));
    }

    #[tokio::test]
    async fn the_event_log_is_stored_gzipped() {
        let dir = TempDir::new("gzip");
        let archive = Archive::from_url(&dir.url()).expect("open the archive");
        archive.put_game(GAME, b"{}", &events()).await.expect("put_game");
        let stored =
            std::fs::read(dir.0.join("games").join(GAME).join("events.ndjson.gz")).expect("stored log");
        assert_eq!(stored[..2], [0x1f, 0x8b]);
        assert!(stored.len() < events().len() / 4, "{} bytes stored", stored.len());
    }

    #[tokio::test]
    async fn an_event_log_that_is_not_gzip_is_corrupt() {
        let dir = TempDir::new("corrupt");
        let archive = Archive::from_url(&dir.url()).expect("open the archive");
        archive.put_game(GAME, b"{}", &events()).await.expect("put_game");
        let path = dir.0.join("games").join(GAME).join("events.ndjson.gz");
        std::fs::write(path, b"{\"seq\":0}\n").expect("overwrite the log");
        assert!(matches!(
            archive.events(GAME).await,
            Err(ArchiveError::Corrupt(_))
        ));
    }

    #[tokio::test]
    async fn only_game_ids_name_objects() {
        let dir = TempDir::new("ids");
        let archive = Archive::from_url(&dir.url()).expect("open the archive");
        for id in [
            "",
            "../../etc/passwd",
            "0123456789ABCDEF01234567",
            "0123456789abcdef0123456",
        ] {
            assert!(
                matches!(archive.has(id).await, Err(ArchiveError::InvalidId(_))),
                "{id}"
            );
            assert!(matches!(
                archive.put_game(id, b"{}", b"").await,
                Err(ArchiveError::InvalidId(_))
            ));
        }
    }

    #[test]
    fn urls_other_than_file_and_s3_are_refused() {
        for url in [
            "http://example.com/archive",
            "gs://bucket/prefix",
            "redis://127.0.0.1",
            "/tmp/archive",
            "file://host/tmp/archive",
            "s3:///prefix",
        ] {
            let refused = Archive::from_url(url);
            assert!(matches!(refused, Err(ArchiveError::Url(_))), "{url}: {refused:?}");
        }
    }

    #[test]
    fn an_s3_archive_describes_itself_without_keys() {
        let archive = Archive::from_url_with(
            "s3://roadie-archive/games",
            &[
                ("endpoint", "http://user:pass@127.0.0.1:9"),
                ("access_key_id", "AKIDTEST"),
                ("secret_access_key", "secret"),
            ],
        )
        .expect("open the archive");
        let described = archive.describe();
        assert_eq!(described, "s3://roadie-archive/games at http://127.0.0.1:9");
        assert!(!described.contains("AKIDTEST") && !described.contains("secret"));
    }

    #[test]
    fn an_unknown_s3_option_is_refused() {
        let refused = Archive::from_url_with("s3://bucket", &[("colour", "blue")]);
        assert!(matches!(refused, Err(ArchiveError::Url(_))), "{refused:?}");
    }
}
