//! `npx adt-ls-native doctor`: explains what the engine would do on this machine — runtime,
//! adt-ls discovery (every candidate, the winner and why), the winner's bundled JRE and,
//! with `--url`, the network path to the SAP system — as text or JSON, with an exit status
//! (0 works, 1 something would fail; usage errors are the command line's, [`crate::cli`]).
//! `docs/doctor.md` documents it.

pub(crate) mod adt_ls;
pub(crate) mod args;
pub(crate) mod certs;
pub(crate) mod http_probe;
pub(crate) mod java;
pub(crate) mod jre;
pub(crate) mod libraries;
pub(crate) mod network;
pub(crate) mod render;
pub(crate) mod report;
pub(crate) mod runtime;
pub(crate) mod tls_probe;
pub(crate) mod verdicts;
pub(crate) mod writable;

use crate::discovery::DiscoverOptions;
use crate::kernel::host::HostEnv;
use crate::tls::{ca_file, pem};
use args::DoctorArgs;
use report::{Check, Report};
pub(crate) use runtime::RuntimeInfo;
use serde_json::{json, Value};

/// Run the checks of `doctor` and render them: the exit status (0 works, 1 something would
/// fail) and the report (text, or JSON with `--json`) for stdout.
pub(crate) async fn report_text(
    doctor: &DoctorArgs,
    host: &HostEnv,
    runtime: &RuntimeInfo,
) -> (i32, String) {
    let report = run(doctor, host, runtime).await;
    let text = if doctor.json {
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        render::text(&report)
    };
    (report.exit_code(), text)
}

/// Collect the report.
pub(crate) async fn run(doctor: &DoctorArgs, host: &HostEnv, runtime_info: &RuntimeInfo) -> Report {
    let mut checks = vec![Check::ok("runtime", runtime::summary(runtime_info))];
    let opts = DiscoverOptions {
        explicit_path: doctor.adt_ls_path.clone(),
        ..DiscoverOptions::from_host(host)
    };
    let found = adt_ls::examine(&opts);
    checks.extend(found.checks);
    let local = local_checks(found.winner.as_deref(), doctor, host, &mut checks).await;
    let cacerts = local.cacerts;

    let mut connection = Value::Null;
    if let Some(url) = &doctor.url {
        let (extra, extra_checks) = read_extra_cas(doctor);
        checks.extend(extra_checks);
        let extra_ca_count = extra.len();
        let mut anchors = cacerts;
        anchors.extend(extra);
        let probe = network::ProbeOptions {
            url: url.clone(),
            self_signed: doctor.self_signed,
            anchors,
            extra_ca_count,
            proxy: doctor.proxy.clone(),
            client: doctor.client.clone().unwrap_or_else(|| "001".to_string()),
            timeout: doctor.timeout,
        };
        let (mut section, probe_checks) = network::probe(&probe).await;
        if let Value::Object(map) = &mut section {
            let files: Vec<String> = doctor
                .extra_ca
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            map.insert("extraCaCerts".into(), json!(files));
        }
        connection = section;
        checks.extend(probe_checks);
    }

    let mut report = Report {
        schema_version: 1,
        ok: report::all_ok(&checks),
        runtime: runtime::section(runtime_info),
        discovery: found.section,
        jre: local.jre,
        libraries: local.libraries,
        directories: local.directories,
        connection,
        checks,
    };
    report.redact();
    report
}

/// The sections of the checks that look at this machine, and the JRE's trusted certificates.
struct Local {
    libraries: Value,
    jre: Value,
    directories: Value,
    cacerts: Vec<Vec<u8>>,
}

/// The winner's libraries, its bundled JRE (with `java`'s start) and the directories;
/// their checks go into `checks`.
async fn local_checks(
    winner: Option<&std::path::Path>,
    doctor: &DoctorArgs,
    host: &HostEnv,
    checks: &mut Vec<Check>,
) -> Local {
    let mut local = Local {
        libraries: Value::Null,
        jre: Value::Null,
        directories: Value::Null,
        cacerts: Vec::new(),
    };
    if let Some(bin) = winner {
        let (section, check) = libraries_of(bin, host, doctor.timeout).await;
        checks.push(check);
        local.libraries = section;
        let needs_jre = doctor.url.is_some() && (doctor.self_signed || !doctor.extra_ca.is_empty());
        let owned = bin.to_path_buf();
        if let Ok(j) = tokio::task::spawn_blocking(move || jre::examine(&owned, needs_jre)).await {
            checks.extend(j.checks);
            (local.jre, local.cacerts) = (j.section, j.trusted);
        }
        let (java, check) = java::examine(bin, host, doctor.timeout).await;
        checks.push(check);
        if let Value::Object(map) = &mut local.jre {
            map.insert("java".into(), java);
        }
    } else {
        checks.push(Check::skip("jre", "not run: no adt-ls binary was found"));
    }
    let (directories, dir_checks) = directories(doctor, host).await;
    checks.extend(dir_checks);
    local.directories = directories;
    local
}

/// The `adt-ls.libraries` check off the async threads, bounded by `timeout` (at least 30 s:
/// the walk reads a few hundred ELF headers).
async fn libraries_of(
    bin: &std::path::Path,
    host: &HostEnv,
    timeout: std::time::Duration,
) -> (Value, Check) {
    let (bin, host) = (bin.to_path_buf(), host.clone());
    let work = tokio::task::spawn_blocking(move || libraries::examine(&bin, &host));
    let bound = timeout.max(std::time::Duration::from_secs(30));
    match tokio::time::timeout(bound, work).await {
        Ok(Ok(found)) => found,
        _ => (Value::Null, Check::warn("adt-ls.libraries", format!("not finished within {} ms", bound.as_millis()), "check that the install and the system library directories are on a responsive file system")),
    }
}

/// The `dir.temp` and `dir.data` checks, off the async threads and bounded like the others.
async fn directories(doctor: &DoctorArgs, host: &HostEnv) -> (Value, Vec<Check>) {
    let temp = host.temp_dir();
    let (data, data_what) = match (&doctor.data_dir, &host.home) {
        (Some(dir), _) => (Some(dir.clone()), "--data-dir, the driver's dataDir"),
        (None, home) => (
            home.clone(),
            "home directory: adt-ls's Eclipse configuration and JVM preferences",
        ),
    };
    let work = tokio::task::spawn_blocking(move || {
        let mut rows = Vec::new();
        let mut checks = Vec::new();
        let (row, check) = writable::examine("dir.temp", "temp", &temp, "temp dir: adt-ls-native's work dir, adt-ls's -data dir, the LSP socket", "set TMPDIR (TEMP on Windows) to a writable directory with free space, e.g. a volume or tmpfs in a container");
        rows.push(row);
        checks.push(check);
        match data {
            Some(dir) => {
                let (row, check) = writable::examine("dir.data", "data", &dir, data_what, "make it writable, or set HOME (USERPROFILE on Windows) to a writable directory: in a container, e.g. ENV HOME=/tmp or a volume");
                rows.push(row);
                checks.push(check);
            }
            None => checks.push(Check::warn(
                "dir.data",
                "no home directory is set",
                "set HOME (USERPROFILE on Windows) to a writable directory",
            )),
        }
        (Value::Array(rows), checks)
    });
    match tokio::time::timeout(std::time::Duration::from_secs(30), work).await {
        Ok(Ok(found)) => found,
        _ => (
            Value::Null,
            vec![Check::warn(
                "dir.temp",
                "the directory checks did not finish within 30 s",
                "check that the temp and home directories are on a responsive file system",
            )],
        ),
    }
}

/// The `--extra-ca` certificates (DER), and a check per unreadable file.
fn read_extra_cas(doctor: &DoctorArgs) -> (Vec<Vec<u8>>, Vec<Check>) {
    let mut certs = Vec::new();
    let mut checks = Vec::new();
    for (i, path) in doctor.extra_ca.iter().enumerate() {
        let parsed = ca_file::read_ca_file(path)
            .and_then(|data| pem::parse_certificates(&data, &format!("extraCaCerts[{i}]")));
        match parsed {
            Ok(list) => {
                checks.push(Check::ok(
                    "extra-ca",
                    format!("{}: {} certificate(s)", path.display(), list.len()),
                ));
                certs.extend(list.into_iter().map(|c| c.to_vec()));
            }
            Err(e) => checks.push(Check::fail(
                "extra-ca",
                e.message,
                "connection.extraCaCerts must name readable PEM or DER certificate files",
            )),
        }
    }
    (certs, checks)
}
