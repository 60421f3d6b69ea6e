//! The native truststore against the real JDK tools: PKCS#12 (with and without password
//! protection, as JDK 18+ ships `cacerts`), JKS, and the keytool fallback for JCEKS; every
//! result listed by `keytool -list` as trustedCertEntry with the original entries kept; and
//! a Java HTTPS client that trusts the proxy through `JAVA_TOOL_OPTIONS` from a directory
//! whose name contains a space. Skipped (with a printed reason) without keytool / java.

use super::support::*;
use crate::tls::cert::generate_localhost_cert;
use crate::tls::truststore::build_truststore;
use crate::tls::truststore::java_tool_options;
use crate::tls::truststore::TrustedCert;
use crate::tls::truststore::TruststoreSource;
use crate::tls::{prepare_adt_ls_tls, start_tls_reverse_proxy, ProxyOptions, PROXY_CERT_ALIAS};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// `keytool -list` as alias → entry type.
fn keytool_list(store: &Path, store_type: Option<&str>) -> BTreeMap<String, String> {
    let mut args = vec![
        "-list",
        "-keystore",
        store.to_str().unwrap(),
        "-storepass",
        "changeit",
    ];
    if let Some(t) = store_type {
        args.extend(["-storetype", t]);
    }
    let out = run_ok("keytool", &args);
    out.lines()
        .filter_map(|line| {
            // `<alias>, <Mon d>, <yyyy>, <type>Entry,` (the date itself contains a comma)
            let parts: Vec<&str> = line.split(',').map(str::trim).collect();
            let kind = parts.iter().skip(1).find(|p| p.ends_with("Entry"))?;
            Some((parts[0].to_string(), kind.to_string()))
        })
        .collect()
}

/// A store of `store_type` holding two trusted certs, made by keytool itself.
fn keytool_store(dir: &Path, store_type: &str, extra_flags: &[&str]) -> PathBuf {
    let store = dir.join(format!("in.{}", store_type.to_lowercase()));
    for alias in ["orig-one", "orig-two"] {
        let cert = generate_localhost_cert().unwrap();
        let file = dir.join(format!("{alias}.pem"));
        std::fs::write(&file, &cert.cert_pem).unwrap();
        let mut args: Vec<&str> = extra_flags.to_vec();
        args.extend([
            "-importcert",
            "-noprompt",
            "-storetype",
            store_type,
            "-keystore",
            store.to_str().unwrap(),
            "-storepass",
            "changeit",
            "-alias",
            alias,
            "-file",
            file.to_str().unwrap(),
        ]);
        run_ok("keytool", &args);
    }
    store
}

fn extras() -> Vec<TrustedCert> {
    let proxy = generate_localhost_cert().unwrap();
    let ca = TestCa::new("Corporate Test CA");
    vec![
        TrustedCert::new(PROXY_CERT_ALIAS, proxy.cert_pem),
        TrustedCert::new("ca-0", ca.cert_pem),
    ]
}

fn assert_all_trusted(store: &Path, store_type: Option<&str>, expected: &[&str]) {
    let listed = keytool_list(store, store_type);
    let aliases: Vec<&str> = listed.keys().map(String::as_str).collect();
    assert_eq!(aliases, expected, "{listed:?}");
    assert!(
        listed.values().all(|t| t == "trustedCertEntry"),
        "{listed:?}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(store).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}

const EXPECTED: [&str; 4] = ["adt-ls-proxy-localhost", "ca-0", "orig-one", "orig-two"];

/// A keytool-made store of `store_type` (made with `extra_flags`) is read as `expected` and
/// rewritten as PKCS#12 with every entry trusted (skipped without keytool).
fn assert_rewritten_natively(
    tag: &str,
    store_type: &str,
    extra_flags: &[&str],
    expected: TruststoreSource,
) {
    if !tool_available("keytool", "-help") {
        return;
    }
    let dir = TempDir::new(tag);
    let input = keytool_store(dir.path(), store_type, extra_flags);
    let out = dir.path().join("truststore.p12");
    let source = build_truststore(&input, None, &out, &extras()).unwrap();
    assert_eq!(source, expected);
    assert_all_trusted(&out, Some("PKCS12"), &EXPECTED);
}

#[test]
fn pkcs12_cacerts_are_read_and_rewritten_natively() {
    assert_rewritten_natively("p12", "PKCS12", &[], TruststoreSource::Pkcs12);
}

#[test]
fn password_less_pkcs12_like_jdk18_cacerts_is_read() {
    assert_rewritten_natively(
        "p12-nopw",
        "PKCS12",
        &[
            "-J-Dkeystore.pkcs12.certProtectionAlgorithm=NONE",
            "-J-Dkeystore.pkcs12.macAlgorithm=NONE",
        ],
        TruststoreSource::Pkcs12,
    );
}

#[test]
fn jks_cacerts_are_read_by_the_hand_written_reader() {
    assert_rewritten_natively("jks", "JKS", &[], TruststoreSource::Jks);
}

#[test]
fn jceks_falls_back_to_keytool() {
    if !tool_available("keytool", "-help") {
        return;
    }
    let dir = TempDir::new("jceks");
    let input = keytool_store(dir.path(), "JCEKS", &[]);
    let out = dir.path().join("truststore.p12");
    let err = build_truststore(&input, None, &out, &extras()).unwrap_err();
    assert!(
        err.message.starts_with("Could not read PKCS#12 keystore"),
        "{}",
        err.message
    );
    let keytool = PathBuf::from("keytool");
    let source = build_truststore(&input, Some(&keytool), &out, &extras()).unwrap();
    assert_eq!(source, TruststoreSource::Keytool);
    assert_all_trusted(&out, None, &EXPECTED);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".truststore"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary PEM files left: {leftovers:?}"
    );
}

/// Every JDK `cacerts` on this machine keeps all its entries and gains ours.
#[test]
fn the_machines_real_cacerts_keep_every_entry() {
    if !tool_available("keytool", "-help") {
        return;
    }
    let mut candidates = vec![PathBuf::from("/etc/ssl/certs/java/cacerts")];
    if let Ok(jvms) = std::fs::read_dir("/usr/lib/jvm") {
        for jvm in jvms.filter_map(|e| e.ok()) {
            candidates.push(jvm.path().join("lib/security/cacerts"));
        }
    }
    let dir = TempDir::new("real");
    let mut checked = 0;
    for cacerts in candidates.iter().filter(|p| p.is_file()) {
        let out = dir.path().join(format!("truststore-{checked}.p12"));
        let source = build_truststore(cacerts, None, &out, &extras())
            .unwrap_or_else(|e| panic!("{}: {}", cacerts.display(), e.message));
        let before = keytool_list(cacerts, None);
        let after = keytool_list(&out, Some("PKCS12"));
        assert!(!before.is_empty());
        assert_eq!(
            after.len(),
            before.len() + 2,
            "{} ({source:?})",
            cacerts.display()
        );
        for alias in before.keys() {
            assert!(
                after.contains_key(alias),
                "{alias} lost from {}",
                cacerts.display()
            );
        }
        checked += 1;
    }
    eprintln!("checked {checked} real cacerts files");
}

/// The whole chain as adt-ls uses it: a JVM started with our `JAVA_TOOL_OPTIONS` (stores in
/// a directory with a space in its name) trusts the proxy's certificate for `localhost`,
/// presents the per-run client identity from the keystore options (docs/decisions.md#d6: the proxy
/// requires it), and the proxy forwards to the backend. Without the keystore options the
/// same JVM is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jvm_trusts_the_proxy_and_presents_its_identity_through_java_tool_options() {
    bounded_with_tool("java", "-version", async {
        let dir = TempDir::new("jvm");
        let work = dir.path().join("work dir with space");
        std::fs::create_dir_all(&work).unwrap();
        let java_home = java_home();
        let bin = fake_adt_ls_install(dir.path(), &java_home);
        std::fs::write(&bin, "").unwrap();

        let tls = prepare_adt_ls_tls(&bin, &work, true, &[])
            .await
            .unwrap()
            .unwrap();
        assert_eq!(tls.trust_store_path, work.join("truststore.p12"));
        let identity = tls.proxy_client.clone().unwrap();
        assert_eq!(identity.keystore_path, work.join("proxy-client.p12"));
        let trust_only = java_tool_options(&tls.trust_store_path);
        assert_eq!(
            tls.java_tool_options,
            format!("{trust_only} {}", identity.java_tool_options())
        );
        assert!(tls.java_tool_options.starts_with('"'));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&identity.keystore_path)
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(
            !crate::kernel::redact::redact(&tls.java_tool_options).contains(identity.password()),
            "the keystore password is redacted"
        );
        let proxy_cert = tls.proxy_cert.clone().unwrap();

        let backend = start_sap_backend(&TestCa::new("Backend Test CA"), None).await;
        let mut opts = ProxyOptions::new(
            proxy_cert.cert_pem,
            proxy_cert.key_pem,
            local_https(backend.port),
        );
        opts.client_auth = Some(identity);
        let proxy = start_tls_reverse_proxy(opts).await.unwrap();

        let source = dir.path().join("Get.java");
        std::fs::write(&source, JAVA_GET).unwrap();
        let run = |java_options: String| {
            tokio::process::Command::new(java_home.join("bin/java"))
                .arg(&source)
                .arg(format!("{}/hello", proxy.url))
                .env("JAVA_TOOL_OPTIONS", java_options)
                .kill_on_drop(true)
                .output()
        };
        let output = run(tls.java_tool_options.clone()).await.unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "java failed: {stdout}{stderr}");
        assert_eq!(stdout.trim(), "200 ok:/hello", "{stderr}");

        let refused = run(trust_only).await.unwrap();
        let stdout = String::from_utf8_lossy(&refused.stdout);
        assert!(
            !refused.status.success() && !stdout.contains("ok:/hello"),
            "a JVM without the identity got through: {stdout}"
        );
        assert_eq!(backend.state.connections.load(Ordering::SeqCst), 1);
        proxy.close().await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prepare_without_tls_needs_does_nothing_and_missing_jre_fails_like_the_reference() {
    bounded(async {
        let dir = TempDir::new("prep");
        let bin = dir.path().join("adt-ls");
        assert!(prepare_adt_ls_tls(&bin, dir.path(), false, &[])
            .await
            .unwrap()
            .is_none());
        let err = prepare_adt_ls_tls(&bin, dir.path(), true, &[])
            .await
            .unwrap_err();
        assert!(err
            .message
            .starts_with("Could not locate the adt-ls JRE keytool relative to"));
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extra_ca_files_are_imported_with_and_without_self_signed() {
    bounded_with_tool("keytool", "-help", async {
        let dir = TempDir::new("prep-ca");
        let bin = fake_adt_ls_install(dir.path(), &java_home());
        let ca_files: Vec<PathBuf> = (0..2)
            .map(|i| {
                let path = dir.path().join(format!("corp-{i}.pem"));
                std::fs::write(&path, TestCa::new("Corp CA").cert_pem).unwrap();
                path
            })
            .collect();
        for self_signed in [true, false] {
            let work = dir.path().join(format!("work-{self_signed}"));
            std::fs::create_dir_all(&work).unwrap();
            let tls = prepare_adt_ls_tls(&bin, &work, self_signed, &ca_files)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(tls.proxy_cert.is_some(), self_signed);
            assert_eq!(tls.extra_ca_pems.len(), 2);
            let listed = keytool_list(&tls.trust_store_path, Some("PKCS12"));
            assert!(
                listed.contains_key("ca-0") && listed.contains_key("ca-1"),
                "{listed:?}"
            );
            assert_eq!(listed.contains_key(PROXY_CERT_ALIAS), self_signed);
        }
        let missing = [dir.path().join("nope.pem")];
        let err = prepare_adt_ls_tls(&bin, dir.path(), false, &missing)
            .await
            .unwrap_err();
        assert!(err.has_code("ENOENT"), "{err:?}");
    })
    .await
}

/// A fake adt-ls install under `dir` whose bundled JRE is `java_home` (symlinked); the path
/// of its `adt-ls` binary, which is not written.
fn fake_adt_ls_install(dir: &Path, java_home: &Path) -> PathBuf {
    let jvm = dir.join("adt/plugins/com.sap.adt.jvm.test_21.0.0");
    std::fs::create_dir_all(&jvm).unwrap();
    link_dir(java_home, &jvm.join("jre"));
    dir.join("adt/adt-ls")
}

/// A directory symlink (the fake install's bundled JRE pointing at the machine's JDK).
fn link_dir(target: &std::path::Path, link: &std::path::Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, link).unwrap();
    #[cfg(windows)]
    std::os::windows::fs::symlink_dir(target, link).unwrap();
}

/// The JDK that runs `java` on PATH.
fn java_home() -> PathBuf {
    let out = run_ok("java", &["-XshowSettings:properties", "-version"]);
    let home = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("java.home = "))
        .expect("java.home not reported");
    PathBuf::from(home.trim())
}

const JAVA_GET: &str = r#"
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;

public class Get {
    public static void main(String[] args) throws Exception {
        HttpURLConnection c = (HttpURLConnection) new URL(args[0]).openConnection();
        int status = c.getResponseCode();
        try (InputStream in = c.getInputStream()) {
            System.out.println(status + " " + new String(in.readAllBytes(), "UTF-8"));
        }
    }
}
"#;
