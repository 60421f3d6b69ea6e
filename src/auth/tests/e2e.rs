//! End to end on the project's simulator: a real `Driver` running the simulated adt-ls,
//! the simulated SAP backend (HTTPS, private CA) and the basic strategy's native handler.
//! `ensureLoggedOn` only resolves `connected` if the reentrance GET (trusting the CA through
//! `extra_ca_pems`), the fire-and-forget reply and the ticket delivery all work; a wrong
//! password ends disconnected with the failure logged and the password never shown.

use super::support::{all_logged, capture_logs, logged, WAIT};
use crate::auth::destinations::create_destination;
use crate::auth::destinations::ensure_logged_on;
use crate::auth::destinations::initialize_service;
use crate::auth::destinations::DestinationConfig;
use crate::auth::destinations::LogonInfo;
use crate::auth::strategy::{Kind, Logon};
use crate::auth::{LogonContext, Strategy};
use crate::driver::{Driver, DriverOptions};
use crate::kernel::log::Level;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const PASSWORD: &str = "Sim-e2e-Passw0rd";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A private temp dir removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "adt-ls-native-auth-e2e-{}-{}",
            std::process::id(),
            crate::kernel::ids::short_id().unwrap()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The simulated SAP backend process (killed on drop) and what it printed.
struct Backend {
    _child: Child,
    url: String,
    ca_pem: String,
}

async fn start_backend() -> Backend {
    let mut child = Command::new("node")
        .arg(repo().join("simulator/lib/sap/main.mjs"))
        .args(["--port", "0", "--tls", "private-ca"])
        .arg(format!("--user=DEVELOPER:{PASSWORD}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs the simulated SAP backend");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    tokio::time::timeout(WAIT, BufReader::new(stdout).read_line(&mut line))
        .await
        .expect("the backend starts in time")
        .unwrap();
    let info: Value = serde_json::from_str(&line).unwrap();
    Backend {
        _child: child,
        url: info["url"].as_str().unwrap().to_string(),
        ca_pem: info["caCertPem"].as_str().unwrap().to_string(),
    }
}

/// A PKCS#12 truststore holding `ca_pem`, for the simulated adt-ls (a "JVM").
fn write_truststore(dir: &Path, ca_pem: &str) -> PathBuf {
    let mut store = p12_keystore::KeyStore::new();
    for (i, der) in crate::tls::pem::parse_certificates(ca_pem.as_bytes(), "ca")
        .unwrap()
        .into_iter()
        .enumerate()
    {
        let cert = p12_keystore::Certificate::from_der(der.as_ref()).unwrap();
        store.add_entry(
            &format!("sim-ca-{i}"),
            p12_keystore::KeyStoreEntry::Certificate(cert),
        );
    }
    let bytes = store
        .writer(crate::tls::TRUSTSTORE_PASSWORD)
        .write()
        .unwrap();
    let path = dir.join("truststore.p12");
    std::fs::write(&path, bytes).unwrap();
    path
}

fn simulator_driver(truststore: &Path) -> Driver {
    Driver::new(
        PathBuf::from("node"),
        DriverOptions {
            extra_args: vec![repo()
                .join("simulator/bin/adt-ls.mjs")
                .to_string_lossy()
                .into_owned()],
            extra_env: vec![
                ("ADTLS_SIM_QUIET".into(), "true".into()),
                ("ADTLS_SIM_LOGON_TIMEOUT_MS".into(), "5000".into()),
                (
                    "JAVA_TOOL_OPTIONS".into(),
                    crate::tls::truststore::java_tool_options(truststore),
                ),
            ],
            ..DriverOptions::default()
        },
    )
}

fn basic(password: &str) -> Strategy {
    Strategy {
        kind: Kind::Basic,
        user: Some("DEVELOPER".into()),
        client_cert: None,
        logon: Logon::Basic {
            password: password.into(),
        },
    }
}

/// Start, register `strategy`, create the destination and log on; returns the logon info.
async fn log_on(strategy: &Strategy, backend: &Backend, dir: &Path) -> (Driver, LogonInfo) {
    let driver = simulator_driver(&write_truststore(dir, &backend.ca_pem));
    driver.start(WAIT).await.expect("the simulator starts");
    let ctx = LogonContext {
        insecure: false,
        extra_ca_pems: vec![backend.ca_pem.clone().into_bytes()],
        sap_client: Some("001".into()),
        ..LogonContext::default()
    };
    strategy.register(&driver, &ctx).await.unwrap();
    let store = dir.join("destinations.json");
    initialize_service(&driver, &store.to_string_lossy())
        .await
        .unwrap();
    let cfg = DestinationConfig {
        id: "A4H".into(),
        system_url: backend.url.clone(),
        user: strategy.user.clone(),
        client: None,
        language: None,
    };
    assert_eq!(
        create_destination(&driver, &cfg).await.unwrap(),
        Value::from("A4H")
    );
    let info = ensure_logged_on(&driver, "A4H", Duration::from_secs(20))
        .await
        .unwrap();
    (driver, LogonInfo::parse(&info).expect("a LogonInfo"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn basic_logon_reaches_connected_on_the_simulator() {
    let backend = start_backend().await;
    let dir = TempDir::new();
    let (driver, info) = log_on(&basic(PASSWORD), &backend, &dir.0).await;
    driver.dispose().await;
    assert!(info.is_connected(), "{info:?}");
    assert_eq!(info.user.as_deref(), Some("DEVELOPER"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_ends_disconnected_and_is_never_logged() {
    capture_logs();
    let backend = start_backend().await;
    let dir = TempDir::new();
    let wrong = "Wrong-e2e-Passw0rd";
    let (driver, info) = log_on(&basic(wrong), &backend, &dir.0).await;
    driver.dispose().await;
    assert!(!info.is_connected(), "{info:?}");
    let failure = format!(
        "reentrance logon failed: wrong user or password, or an invalid or expired token: the SAP system refused the logon (HTTP 401 from {}/sap/bc/adt/core/http/reentranceticket)",
        backend.url
    );
    assert!(!logged(Level::Warn, &failure).is_empty());
    // The mechanism stays available at debug.
    let mechanism = format!(
        "logon failure mechanism: reentrance logon failed: reentrance: no redirect Location (status 401) from {}/sap/bc/adt/core/http/reentranceticket?",
        backend.url
    );
    assert!(!logged(Level::Debug, &mechanism).is_empty());
    for line in all_logged() {
        assert!(!line.contains(wrong), "{line}");
    }
}
