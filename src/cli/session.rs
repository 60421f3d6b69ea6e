//! One adt-ls session for a run: the resolved settings ([`super::config`]) and credentials
//! become `createAdtLs` options (basic with `ADT_LS_PASSWORD` / `--password-stdin`, bearer with
//! `ADT_LS_BEARER_TOKEN`; neither without `--url`: foundation mode), and start-up failures
//! become exit status 3 with what to do; a missing adt-ls gets the doctor's own finding and
//! fix. adt-ls is started without the secrets in its environment, without keep-alive (a run is
//! short), and with `--timeout-ms` as its request bound.

use super::args::Common;
use super::config::{self, Settings};
use super::exit::Failure;
use super::secrets;
use crate::auth::strategy::{Kind, Logon, Strategy, TokenSource};
use crate::client::{Client, ClientOptions, ConnectionOptions};
use crate::discovery::DiscoverOptions;
use crate::doctor::{adt_ls, report::Status as CheckStatus};
use crate::driver::SessionHost;
use crate::kernel::error::codes;
use crate::kernel::host::HostEnv;
use std::sync::Arc;
use std::time::Duration;

/// Variables the run reads secrets from; adt-ls does not inherit them.
const SECRET_VARS: &[&str] = &["ADT_LS_PASSWORD", "ADT_LS_BEARER_TOKEN"];

/// The options of the run's client; `needs_system` refuses foundation mode up front.
pub(crate) fn options(
    common: &Common,
    host: &HostEnv,
    command: &str,
    needs_system: bool,
) -> Result<ClientOptions, Failure> {
    let settings = config::resolve(&common.conn, host)?;
    let mut opts = ClientOptions {
        adt_ls_path: settings.adt_ls_path.clone(),
        keep_alive: false,
        host: SessionHost {
            env: Some(without_secrets(host)),
            ..SessionHost::default()
        },
        ..ClientOptions::default()
    };
    if let Some(ms) = common.out.timeout_ms {
        opts.request_timeout = Duration::from_millis(ms);
        opts.mcp_timeout = Duration::from_millis(ms);
    }
    match &settings.url {
        Some(url) => {
            check_url(url)?;
            opts.auth = Some(Arc::new(strategy(&settings, host)?));
            opts.connection = Some(ConnectionOptions {
                system_url: url.clone(),
                client: settings.client.clone(),
                self_signed: settings.self_signed,
                extra_ca_certs: settings.extra_ca.clone(),
                ..ConnectionOptions::default()
            });
        }
        None if needs_system => {
            return Err(Failure::usage(format!(
                "{command} needs an SAP system: give --url (or ADT_LS_URL, or \"url\" in {}) and credentials",
                config::DEFAULT_FILE
            )))
        }
        None => {}
    }
    Ok(opts)
}

fn without_secrets(host: &HostEnv) -> HostEnv {
    let vars = host
        .vars
        .clone()
        .unwrap_or_else(|| std::env::vars().collect());
    HostEnv {
        vars: Some(
            vars.into_iter()
                .filter(|(k, _)| !SECRET_VARS.contains(&k.as_str()))
                .collect(),
        ),
        ..host.clone()
    }
}

/// The URL's own checks. An `@` means credentials (a system URL has none), refused like a
/// password option and never echoed, whatever else in the URL does not parse.
fn check_url(url: &str) -> Result<(), Failure> {
    if url.contains('@') {
        return Err(Failure::usage(
            "--url: a password in the URL is refused (other local users can read a process's arguments): put it in the environment variable ADT_LS_PASSWORD, or pipe it to --password-stdin",
        ));
    }
    crate::options::values::system_url(url)
        .map(|_| ())
        .map_err(|e| Failure::usage(e.message.replace("connection.systemUrl", "--url")))
}

fn strategy(settings: &Settings, host: &HostEnv) -> Result<Strategy, Failure> {
    let env = |name: &str| host.var(name).filter(|v| !v.is_empty());
    let password = if settings.password_stdin {
        Some(secrets::first_line(std::io::stdin().lock())?)
    } else {
        env("ADT_LS_PASSWORD")
    };
    if let Some(password) = password {
        crate::kernel::redact::register(&password);
        let user = settings.user.clone().ok_or_else(|| {
            Failure::usage("a password needs a user: give --user (or ADT_LS_USER)")
        })?;
        return Ok(Strategy {
            kind: Kind::Basic,
            user: Some(user),
            client_cert: None,
            logon: Logon::Basic { password },
        });
    }
    if let Some(token) = env("ADT_LS_BEARER_TOKEN") {
        crate::kernel::redact::register(&token);
        return Ok(Strategy {
            kind: Kind::Bearer,
            user: settings.user.clone(),
            client_cert: None,
            logon: Logon::Bearer {
                token: TokenSource::Value(token),
            },
        });
    }
    Err(Failure::usage(
        "--url needs credentials: set ADT_LS_PASSWORD (with --user) or pipe the password to --password-stdin, or set ADT_LS_BEARER_TOKEN",
    ))
}

/// Start the client; a failure as its exit case, with the doctor's finding for a missing adt-ls.
pub(crate) async fn open(opts: ClientOptions) -> Result<Client, Failure> {
    let discover = DiscoverOptions {
        explicit_path: opts.adt_ls_path.clone(),
        ..DiscoverOptions::from_host(&opts.host.env_or_os())
    };
    match Client::create(opts).await {
        Ok(client) => Ok(client),
        Err(e) if e.has_code(codes::ADT_LS_NOT_FOUND) => Err(missing_adt_ls(&discover, &e.message)),
        Err(e) => Err(Failure::from_call(e)),
    }
}

/// `adt-ls not found: <the doctor's message>` with its fix and where to look further.
fn missing_adt_ls(discover: &DiscoverOptions, message: &str) -> Failure {
    let found = adt_ls::examine(discover);
    let check = found
        .checks
        .iter()
        .find(|c| c.id == "adt-ls.discovery" && c.status == CheckStatus::Fail);
    let (message, fix) = match check {
        Some(c) => (c.message.clone(), c.fix.clone().unwrap_or_default()),
        None => (message.to_string(), String::new()),
    };
    Failure::unavailable(
        "adt-ls not found",
        format!("{message}\n  fix: {fix}\n  `adt-ls-native doctor` lists every place it looked"),
    )
}
