//! The option types of the public API: `new AdtLsDriver(binPath, opts)`, `createAdtLs(opts)`
//! (with its connection and nested option objects), `resolveAdtLsPath(opts)`, and the option
//! objects of `composeSpawnArgs`, `startMcpServer` and the strategy factories. Each is declared
//! once: with `#[js_options(Values)]` the declaration is the `#[napi(object)]` interface of
//! `index.d.ts`, the known keys of the unknown-key warning and the checked reader the exports
//! use (`DriverOpts`, `CreateAdtLs`, `Discover`, … hold the values as JS gave them; `driver.rs`,
//! `client.rs` and `functions.rs` turn them into engine options). An object whose TypeScript is
//! inline in its export's signature is declared the same way with `inline`: the export's
//! `#[inline_ts(Name)]` writes it into `ts_args_type`, and no interface is emitted. Callback-typed members
//! and types napi cannot render (`LogonStrategy`, `ServerRequestHandler`, `NodeJS.Platform`)
//! are spelled with `ts_type` and declared in `types/header.d.ts`; their readers are below.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::auth::Strategy;
use crate::js::runtime::checked;
use crate::js::runtime::option_types::{js_values, AdtLsPort, FromJs, PeerPort, Port, Secret};
use crate::kernel::arg_error;
use crate::kernel::error::Result as EngineResult;
use adt_ls_native_macros::js_options;
use napi::bindgen_prelude::*;
use napi::Either;
use serde_json::Value;

/// Options of `new AdtLsDriver(binPath, opts)`.
#[js_options(
    DriverOpts,
    read(
        data_dir,
        extra_args,
        extra_env,
        client_info,
        request_timeout_ms,
        trace,
        request_handlers,
    )
)]
pub struct AdtLsDriverOptions {
    /// adt-ls's Eclipse workspace (`-data`) and JCo trace directory. Created at start. A
    /// directory you give is kept on dispose.
    /// @defaultValue a private `<tmp>/adt-ls-<12 hex>` (mode 0700) that `dispose()` removes
    pub data_dir: Option<String>,
    /// Environment entries for the adt-ls process, laid over the inherited environment (a
    /// matching key is replaced, e.g. `JAVA_TOOL_OPTIONS`).
    #[js_read(Option<Vec<(String, String)>>)]
    pub extra_env: Option<HashMap<String, String>>,
    /// Arguments placed before adt-ls's own `-Djco.trace_path`, `-data` and `--pipe`: JVM or JCo
    /// flags such as `-Djco.middleware.snc_lib=…`, `-Djava.library.path=…`, or `-consoleLog`.
    pub extra_args: Option<Vec<String>>,
    /// Handlers for server->client requests, by LSP method; the same as calling
    /// {@link AdtLsDriver.setRequestHandler} for each. Unhandled requests are answered `null`
    /// (`workspace/configuration`: one `null` per item).
    #[napi(ts_type = "Record<string, ServerRequestHandler>")]
    #[js_read(Option<RequestHandlers<'e>>)]
    pub request_handlers: Option<Value>,
    /// The identity sent in `initialize` as `clientInfo` and as the one `userAgentInfos` entry
    /// (adt-ls builds its HTTP User-Agent from it).
    /// @defaultValue `{ name: 'adt-ls-native', version: <package version> }`
    #[js_read(Option<ClientIdentity<'e>>)]
    pub client_info: Option<ClientInfo>,
    /// Bound on each LSP request, in milliseconds (a finite positive number); a request that
    /// takes longer rejects with code `ETIMEDOUT`. Per call: `sendRequest(method, params, { timeoutMs })`.
    /// adt-ls-native addition (the reference waits for ever).
    /// @defaultValue 300000
    /// @throws `ERR_OUT_OF_RANGE` from the constructor when not a finite positive number
    #[js_read(Option<Duration>)]
    pub request_timeout_ms: Option<f64>,
    /// Append a redacted JSONL trace of every LSP and MCP message to a file
    /// (docs/tracing.md): passwords, tokens, tickets, cookies and `Authorization` values are
    /// masked. The option wins over the `ADT_LS_NATIVE_TRACE=<file>` environment variable.
    /// adt-ls-native addition.
    /// @defaultValue no trace unless `ADT_LS_NATIVE_TRACE` names a file
    /// @throws `ERR_INVALID_ARG_TYPE` when not an object, or when `trace.file` is not a string
    #[js_read(Option<Trace<'e>>)]
    pub trace: Option<TraceOptions>,
}

/// The client identity of {@link AdtLsDriverOptions.clientInfo}.
#[js_options(ClientIdentity)]
pub struct ClientInfo {
    /// Client name, e.g. your tool's package name.
    #[js_read(Option<String>)]
    pub name: String,
    /// Client version.
    #[js_read(Option<String>)]
    pub version: String,
}

/// The SAP system to log on to: `connection` in {@link CreateAdtLsOptions} (give it together with `auth`).
#[js_options(
    Connection,
    read(
        system_url,
        forward_proxy,
        probe,
        client,
        language,
        self_signed,
        extra_ca_certs,
    )
)]
pub struct ConnectionOptions {
    /// URL of the SAP system's ICM, e.g. `https://host:44300`: `https://` or `http://`, a host,
    /// an optional port, no user or password in it. adt-ls itself accepts only `https://`, so an
    /// `http://` system needs `selfSigned` (the TLS proxy). Becomes the adt-ls destination's `systemUrl`
    /// (`adtLs/destinations/create`).
    /// @throws `ERR_INVALID_ARG_VALUE` from `createAdtLs` for any other URL
    pub system_url: String,
    /// SAP client (Mandant), also sent as `sap-client` on the ticket request.
    /// @defaultValue '001'
    pub client: Option<String>,
    /// Logon language.
    /// @defaultValue 'EN'
    pub language: Option<String>,
    /// Front the system with a localhost TLS reverse proxy (an in-process `CN=localhost`
    /// certificate, trusted by adt-ls through a private truststore in `JAVA_TOOL_OPTIONS`), for
    /// a self-signed certificate, a host-name mismatch or an `http://` system; the ticket GET
    /// then skips verification. `http://` without a port means port 80. Required by {@link clientCert}.
    /// @defaultValue false
    pub self_signed: Option<bool>,
    /// PEM files of extra CA certificates (corporate PKI), added to adt-ls's truststore (a copy
    /// of its bundled JRE's `cacerts`) and trusted by the ticket GET and the proxy's upstream
    /// hop. Each must be a regular file of at most 1 MiB.
    /// @throws `createAdtLs` rejects when a file is missing, too large or not a regular file
    pub extra_ca_certs: Option<Vec<String>>,
    /// Send the TLS proxy's requests through this HTTP forward proxy, in absolute form (not
    /// CONNECT), e.g. a Cloud Connector style bridge that does the TLS. Only with `selfSigned`.
    #[js_read(Option<ForwardProxy<'e>>)]
    pub forward_proxy: Option<ForwardProxyOptions>,
    /// The object the liveness probe searches for (`adtLs/repository/quickSearch` with
    /// `maxResults: 1`): live while it is found. Used at startup and by the keep-alive.
    /// @defaultValue `{ pattern: 'CL_ABAP_TYPEDESCR', types: ['CLAS/OC'] }`
    #[js_read(Option<LivenessProbe<'e>>)]
    pub probe: Option<LivenessProbeOptions>,
}

/// The HTTP forward proxy of {@link ConnectionOptions.forwardProxy}.
#[js_options(ForwardProxy)]
pub struct ForwardProxyOptions {
    /// The forward proxy's host name or IP address.
    pub host: String,
    /// The forward proxy's port.
    #[js_read(Port)]
    pub port: f64,
}

/// The liveness probe's search of {@link ConnectionOptions.probe}.
#[js_options(LivenessProbe)]
pub struct LivenessProbeOptions {
    /// The quick-search pattern, e.g. an object that always exists.
    pub pattern: String,
    /// ADT type codes to search in (default: all).
    pub types: Option<Vec<String>>,
}

/// Options of {@link createAdtLs}. Give `connection` and `auth` together to log on to a
/// system, or neither for foundation mode (adt-ls and its MCP server run, no system is
/// contacted).
#[js_options(
    CreateAdtLs,
    read(
        auth,
        adt_ls,
        mcp_timeout_ms,
        logon_timeout_ms,
        connection,
        trace,
        destination_id,
        mcp_port,
        keep_alive,
    )
)]
pub struct CreateAdtLsOptions {
    /// Which adt-ls to run and how.
    #[js_read(Option<AdtLsLaunch<'e>>)]
    pub adt_ls: Option<AdtLsLaunchOptions>,
    /// The SAP system. Omit together with `auth` for foundation mode.
    #[js_read(Option<Connection<'e>>)]
    pub connection: Option<ConnectionOptions>,
    /// How to log on ({@link basic}, {@link bearer}, {@link clientCert}, {@link interactive},
    /// {@link custom}). Omit together with `connection` for foundation mode.
    /// @throws rejects with `Provide connection and auth together, or omit both for foundation mode.` when only one is given
    #[napi(ts_type = "LogonStrategy")]
    #[js_read(Option<Auth>)]
    pub auth: Option<Value>,
    /// The adt-ls destination id (`adtLs/destinations/create`, `ensureLoggedOn`,
    /// `adtLs/mcp/setDestination`); reported by `health().destination`.
    /// @defaultValue 'ADTLS'
    pub destination_id: Option<String>,
    /// First port tried for adt-ls's MCP server (`adtLs/mcp/startMCPServer`), from 1024 to
    /// 65535 as adt-ls accepts; a busy port moves on to the next, for up to 20 ports (never
    /// past 65535). `health().mcpPort` is the port in use.
    /// @defaultValue 2240
    #[js_read(Option<AdtLsPort>)]
    pub mcp_port: Option<f64>,
    /// Activity-gated keep-alive, only when connected: while the client was used in the last
    /// 15 minutes, a liveness probe (`connection.probe`, a one-hit `adtLs/repository/quickSearch`)
    /// runs every period, and a dead SAP session is logged on again (`ensureLoggedOn`). It never
    /// keeps Node running. `false` turns it off; `{ intervalMs }` (adt-ls-native addition) turns
    /// it on with another period.
    /// @defaultValue true (every 180 000 ms)
    /// @throws `createAdtLs` rejects with `ERR_OUT_OF_RANGE` for an `intervalMs` that is not a finite positive number
    #[js_read(Option<KeepAliveChoice<'e>>)]
    pub keep_alive: Option<Either<bool, KeepAliveOptions>>,
    /// Bound on each call to adt-ls's MCP server (the whole HTTP exchange), in milliseconds.
    /// adt-ls-native addition.
    /// @defaultValue 120000
    #[js_read(Option<Duration>)]
    pub mcp_timeout_ms: Option<f64>,
    /// Bound on `adtLs/destinations/ensureLoggedOn` (the whole logon, the user's interactive
    /// sign-in included), in milliseconds. adt-ls-native addition.
    /// @defaultValue 300000
    #[js_read(Option<Duration>)]
    pub logon_timeout_ms: Option<f64>,
    /// Append a redacted JSONL trace of every LSP and MCP message to a file
    /// (docs/tracing.md): passwords, tokens, tickets, cookies and `Authorization` values are
    /// masked. The option wins over the `ADT_LS_NATIVE_TRACE=<file>` environment variable.
    /// adt-ls-native addition.
    /// @defaultValue no trace unless `ADT_LS_NATIVE_TRACE` names a file
    /// @throws `ERR_INVALID_ARG_TYPE` when not an object, or when `trace.file` is not a string
    #[js_read(Option<Trace<'e>>)]
    pub trace: Option<TraceOptions>,
}

/// The wire trace of {@link CreateAdtLsOptions.trace} and {@link AdtLsDriverOptions.trace}
/// (adt-ls-native addition; format and redaction rules in docs/tracing.md).
#[js_options(Trace)]
pub struct TraceOptions {
    /// The trace file (a relative path is taken from `process.cwd()`): created with mode 0600
    /// when new, appended to otherwise (each adt-ls session starts with a header line). A file
    /// that cannot be opened or written is logged once and tracing stops; the client goes on.
    /// `adt-ls-simulator replay <file>` replays it.
    pub file: String,
}

/// Which adt-ls {@link createAdtLs} runs and how: {@link CreateAdtLsOptions.adtLs}.
#[js_options(AdtLsLaunch)]
pub struct AdtLsLaunchOptions {
    /// The adt-ls binary; it must be a regular file. Without it the binary is discovered
    /// ({@link resolveAdtLsPath}: `ADT_LS_PATH`, `vendor/adt-ls/`, the newest
    /// `sapse.adt-vscode` editor extension).
    /// @throws rejects with `Explicit adt-ls binary is not a file: <path>. ...` when it is not a file
    pub path: Option<String>,
    /// Arguments placed before adt-ls's own `-data` and `--pipe` (JVM or JCo flags, `-consoleLog`).
    pub extra_args: Option<Vec<String>>,
    /// More environment for the adt-ls process, laid over the inherited one. adt-ls-native addition.
    #[js_read(Option<Vec<(String, String)>>)]
    pub extra_env: Option<HashMap<String, String>>,
    /// Bound on each start phase (adt-ls connecting to the pipe, `initialize`), in milliseconds.
    /// adt-ls-native addition.
    /// @defaultValue 60000
    #[js_read(Option<Duration>)]
    pub start_timeout_ms: Option<f64>,
    /// Bound on each LSP request, in milliseconds (code `ETIMEDOUT` when exceeded).
    /// adt-ls-native addition.
    /// @defaultValue 300000
    #[js_read(Option<Duration>)]
    pub request_timeout_ms: Option<f64>,
}

/// The keep-alive period of {@link CreateAdtLsOptions.keepAlive} (adt-ls-native addition).
#[js_options(KeepAlive)]
pub struct KeepAliveOptions {
    /// Milliseconds between two keep-alive ticks (a finite positive number).
    /// @defaultValue 180000
    #[js_read(Option<Duration>)]
    pub interval_ms: Option<f64>,
}

/// Where {@link resolveAdtLsPath} looks for the adt-ls binary.
#[js_options(Discover)]
pub struct DiscoverOptions {
    /// The binary to use; it must be a regular file (no fall-through to the other sources).
    /// @defaultValue the `ADT_LS_PATH` environment variable (an empty value counts as unset)
    pub explicit_path: Option<String>,
    /// Where to look for `vendor/adt-ls/<platform sub-path>`.
    /// @defaultValue `process.cwd()`
    pub repo_root: Option<String>,
    /// One editor extensions directory to search instead of the defaults.
    pub extensions_dir: Option<String>,
    /// Editor extensions directories to search, pooled: the newest `sapse.adt-vscode-<version>`
    /// across all of them wins.
    /// @defaultValue {@link defaultExtensionDirs}: VS Code, Cursor and VS Code Insiders under the home directory
    pub extensions_dirs: Option<Vec<String>>,
    /// Node platform name for the binary's sub-path.
    /// @defaultValue `process.platform`
    #[napi(ts_type = "NodeJS.Platform | string")]
    pub platform: Option<String>,
    /// Node architecture name for the binary's sub-path.
    /// @defaultValue `process.arch`
    pub arch: Option<String>,
}

/// `auth`: a strategy made by our factories or any object with the strategy shape (read by
/// the strategies' own reader, in `strategies.rs`).
pub struct Auth(pub Arc<Strategy>);

/// `keepAlive`: a boolean, or `{ intervalMs }` (which turns it on).
pub enum KeepAliveChoice<'e> {
    /// `true` or `false`.
    On(bool),
    /// `{ intervalMs }`.
    Every(KeepAlive<'e>),
}

impl<'e> FromJs<'e> for Option<KeepAliveChoice<'e>> {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        match value.filter(|k| !is_nullish(k)) {
            None => Ok(None),
            Some(k) if matches!(k.get_type(), Ok(ValueType::Boolean)) => {
                Ok(checked::opt_bool(env, Some(k), path)?.map(KeepAliveChoice::On))
            }
            Some(k) => {
                let Some(obj) = checked::opt_object(env, Some(k), path).map_err(|_| {
                    arg_error::type_error(
                        path,
                        "a boolean or { intervalMs }",
                        &checked::received(env, Some(&k)),
                    )
                })?
                else {
                    return Ok(None);
                };
                KeepAlive::read(env, &obj, path).map(|k| Some(KeepAliveChoice::Every(k)))
            }
        }
    }
}

/// `requestHandlers`: a function per LSP method (`undefined` and `null` entries skipped).
pub struct RequestHandlers<'e>(pub Vec<(String, Function<'e, Unknown<'e>, Unknown<'e>>)>);

impl<'e> FromJs<'e> for Option<RequestHandlers<'e>> {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        let Some(map) = checked::opt_object(env, value, path)? else {
            return Ok(None);
        };
        let mut handlers = Vec::new();
        for method in checked::keys(&map) {
            let at = format!("{path}.{method}");
            if let Some(f) = checked::opt_function(env, checked::property(&map, &method), &at)? {
                handlers.push((method, f));
            }
        }
        Ok(Some(RequestHandlers(handlers)))
    }
}

pub(crate) fn is_nullish(v: &Unknown) -> bool {
    matches!(v.get_type(), Ok(ValueType::Undefined | ValueType::Null))
}

/// A PEM certificate or key: a string, Buffer or Uint8Array (required).
pub struct PemBytes(pub Vec<u8>);

impl<'e> FromJs<'e> for PemBytes {
    fn from_js(env: &Env, value: Option<Unknown<'e>>, path: &str) -> EngineResult<Self> {
        let expected = "a PEM string, Buffer or Uint8Array";
        checked::opt_bytes(env, value, path)?
            .map(PemBytes)
            .ok_or_else(|| {
                arg_error::type_error(path, expected, &checked::received(env, value.as_ref()))
            })
    }
}

// The option objects whose TypeScript is written inline in the export's signature: each
// export names its object in `#[inline_ts(…)]`, which writes the fields below into its
// `ts_args_type`.

/// `composeSpawnArgs(opts)`.
#[js_options(SpawnArgs, inline)]
pub struct SpawnArgsOptions {
    pub data_dir: String,
    pub pipe_name: String,
    pub extra_args: Option<Vec<String>>,
}

/// `startMcpServer(driver, opts)`: a port from 0 to 65535 (adt-ls applies its own range).
#[js_options(StartMcp, inline)]
pub struct StartMcpOptions {
    #[js_read(PeerPort)]
    pub port: f64,
    #[js_read(Secret)]
    pub token: String,
}

/// `opts` of `bearer(token, opts)` and `custom(register, opts)`.
#[js_options(StrategyUser, inline)]
pub struct StrategyUserOptions {
    pub user: Option<String>,
}

/// `clientCert(opts)`.
#[js_options(ClientCertArgs, inline)]
pub struct ClientCertOptions {
    #[js_read(PemBytes)]
    pub cert: Either<String, Buffer>,
    #[js_read(PemBytes)]
    pub key: Either<String, Buffer>,
    pub user: Option<String>,
}

js_values! {
    /// `interactive(cb)`: `InteractiveCallbacks` (declared in `types/header.d.ts`).
    pub struct InteractiveArgs<'e> {
        pub open_url: Function<'e, Unknown<'e>, Unknown<'e>>,
        pub prompt_field: Option<Function<'e, Unknown<'e>, Unknown<'e>>>,
        pub user: Option<String>,
    }
}
