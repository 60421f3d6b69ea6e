//! `npx adt-ls-native doctor`: explains what the engine would do on this machine — runtime,
//! adt-ls discovery (every candidate, the winner and why), the winner's bundled JRE and,
//! with `--url`, the network path to the SAP system — as text or JSON, with an exit status
//! (0 works, 1 something would fail; usage errors are the command line's, [`crate::cli`]).
//! `docs/doctor.md` documents it.

pub mod adt_ls;
pub mod args;
pub mod certs;
pub mod http_probe;
pub mod jre;
pub mod network;
pub mod render;
pub mod report;
pub mod runtime;
pub mod tls_probe;
pub mod verdicts;

use crate::discovery::DiscoverOptions;
use crate::process::host::HostEnv;
use crate::tls::{ca_file, pem};
use args::DoctorArgs;
use report::{Check, Report};
pub use runtime::RuntimeInfo;
use serde_json::{json, Value};

/// Run the checks of `doctor` and render them: the exit status (0 works, 1 something would
/// fail) and the report (text, or JSON with `--json`) for stdout.
pub async fn report_text(
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
pub async fn run(doctor: &DoctorArgs, host: &HostEnv, runtime_info: &RuntimeInfo) -> Report {
    let mut checks = vec![Check::ok("runtime", runtime::summary(runtime_info))];
    let opts = DiscoverOptions {
        explicit_path: doctor.adt_ls_path.clone(),
        ..DiscoverOptions::from_host(host)
    };
    let found = adt_ls::examine(&opts);
    checks.extend(found.checks);
    let needs_jre = doctor.url.is_some() && (doctor.self_signed || !doctor.extra_ca.is_empty());
    let (jre_section, cacerts) = match &found.winner {
        Some(bin) => {
            let bin = bin.clone();
            let jre = tokio::task::spawn_blocking(move || jre::examine(&bin, needs_jre)).await;
            match jre {
                Ok(j) => {
                    checks.extend(j.checks);
                    (j.section, j.trusted)
                }
                Err(_) => (Value::Null, Vec::new()),
            }
        }
        None => {
            checks.push(Check::skip("jre", "not run: no adt-ls binary was found"));
            (Value::Null, Vec::new())
        }
    };

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

    Report {
        schema_version: 1,
        ok: report::all_ok(&checks),
        runtime: runtime::section(runtime_info),
        discovery: found.section,
        jre: jre_section,
        connection,
        checks,
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
