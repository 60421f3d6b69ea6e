//! Plain exported functions: version gate, discovery, spawn argv, text helpers and the
//! federated-result unwrapper. Each converts its arguments and calls the engine.

use super::types::options::{Discover, SpawnArgs};
use crate::discovery::version;
use crate::discovery::{self, DiscoverOptions};
use crate::js::runtime::checked;
use crate::js::runtime::errors::throw;
use crate::js::runtime::option_types::FromJs;
use crate::js::runtime::values::{self, Json, OrUndefined, Raw};
use crate::kernel::arg_error::{self, Received};
use crate::kernel::error::{codes, Error as EngineError, Result as EngineResult};
use crate::lsp::text::{self, Legend, TextEdit};
use crate::mcp::federated;
use crate::process::args;
use adt_ls_native_macros::inline_ts;
use napi::bindgen_prelude::*;
use serde_json::Value;
use std::path::PathBuf;

/// The oldest adt-ls accepted: `1.1.2`. adt-ls 1.1.2 changed the request shapes (`fileUris`,
/// coverage `uris`, delete `options`, VFS mode), so older builds cannot work with this library.
#[napi]
pub const MINIMUM_ADT_LS_VERSION: &str = "1.1.2";
/// The version of SAP's `SAPSE.adt-vscode` editor extension that ships the verified adt-ls:
/// `1.1.2`. Install at least this one for discovery to find a usable adt-ls.
#[napi]
pub const REQUIRED_SAPSE_ADT_VSCODE_VERSION: &str = "1.1.2";
/// The adt-ls build this library is verified against: `1.1.2.202608131517`. Any other
/// supported build works, with the warning `adt-ls <v> is supported but not the verified build
/// <this>.` logged at start.
#[napi]
pub const VERIFIED_ADT_LS_VERSION: &str = "1.1.2.202608131517";

// The exported literals must stay equal to the engine's constants.
const _: () = {
    assert!(const_str_eq(
        MINIMUM_ADT_LS_VERSION,
        version::MINIMUM_ADT_LS_VERSION
    ));
    assert!(const_str_eq(
        REQUIRED_SAPSE_ADT_VSCODE_VERSION,
        version::REQUIRED_SAPSE_ADT_VSCODE_VERSION
    ));
    assert!(const_str_eq(
        VERIFIED_ADT_LS_VERSION,
        version::VERIFIED_ADT_LS_VERSION
    ));
};

const fn const_str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The `version?: string` argument of the version helpers.
fn version_arg(env: &Env, version: Option<Unknown>) -> Result<Option<String>> {
    checked::opt_string(env, version, "version").or_else(|e| throw(env, e))
}

/// Parse an adt-ls version (`serverInfo.version` from `initialize`): the first three
/// dot-separated integers, followed by `.` or the end.
///
/// @param version - e.g. `1.1.2.202608131517`
/// @returns `[1, 1, 2]` for that example; `undefined` when `version` is missing or does not
/// start with three integers
/// @example
/// ```ts
/// parseAdtLsVersion('1.1.2.202608131517') // [1, 1, 2]
/// parseAdtLsVersion('dev')                // undefined
/// ```
#[napi(
    ts_args_type = "version?: string",
    ts_return_type = "ParsedAdtLsVersion | undefined"
)]
pub fn parse_adt_ls_version(env: Env, version: Unknown) -> Result<OrUndefined<Vec<f64>>> {
    let version = Some(version);
    let version = version_arg(&env, version)?;
    Ok(OrUndefined(
        version
            .as_deref()
            .and_then(version::parse_adt_ls_version)
            .map(|v| v.to_vec()),
    ))
}

/// Whether an adt-ls version is supported: it parses ({@link parseAdtLsVersion}) and is at
/// least {@link MINIMUM_ADT_LS_VERSION}, compared numerically (`1.10.0` > `1.9.0`). Never throws.
#[napi(ts_args_type = "version?: string")]
pub fn is_supported_adt_ls_version(env: Env, version: Unknown) -> Result<bool> {
    let version = Some(version);
    let version = version_arg(&env, version)?;
    Ok(version::is_supported_adt_ls_version(version.as_deref()))
}

/// The version gate {@link AdtLsDriver.start} applies: returns when
/// {@link isSupportedAdtLsVersion} holds, and throws otherwise.
///
/// @throws Error `Unsupported adt-ls version <v>. adt-ls-native requires adt-ls >= 1.1.2
/// (verified 1.1.2.202608131517). Update the SAPSE.adt-vscode extension or provide a newer
/// ADT_LS_PATH.` (`<missing>` for an absent version)
#[napi(ts_args_type = "version?: string")]
pub fn assert_supported_adt_ls_version(env: Env, version: Unknown) -> Result<()> {
    let version = Some(version);
    let version = version_arg(&env, version)?;
    match version::assert_supported_adt_ls_version(version.as_deref()) {
        Ok(()) => Ok(()),
        Err(e) => throw(&env, e),
    }
}

/// The adt-ls binary's path below the `adt-ls/` folder of a `sapse.adt-vscode` install, as path
/// segments: e.g. `['linux', 'gtk', 'x86_64', 'adt-ls']` on Linux x64, or
/// `['macosx', 'cocoa', 'aarch64', 'Adt-ls.app', 'Contents', 'MacOS', 'adt-ls']` on Apple silicon.
///
/// @param platform - a Node platform name (default `process.platform`)
/// @param arch - a Node architecture name (default `process.arch`)
/// @throws Error `Unsupported platform: <platform>` outside darwin, linux and win32 (the platforms
/// SAP ships adt-ls for)
#[napi(ts_args_type = "platform?: string, arch?: string")]
pub fn platform_sub_path(env: Env, platform: Unknown, arch: Unknown) -> Result<Vec<String>> {
    let platform = Some(platform);
    let arch = Some(arch);
    let platform = checked::opt_string(&env, platform, "platform").or_else(|e| throw(&env, e))?;
    let arch = checked::opt_string(&env, arch, "arch").or_else(|e| throw(&env, e))?;
    let platform = platform.unwrap_or_else(|| discovery::node_platform().to_string());
    let arch = arch.unwrap_or_else(|| discovery::node_arch().to_string());
    discovery::platform_sub_path(&platform, &arch).or_else(|e| throw(&env, e))
}

/// The editor extension directories discovery searches by default: `<home>/.vscode/extensions`
/// (VS Code), `<home>/.cursor/extensions` (Cursor) and `<home>/.vscode-insiders/extensions`
/// (VS Code Insiders), on every OS.
///
/// @param home - the home directory (default `os.homedir()`)
#[napi(ts_args_type = "home?: string")]
pub fn default_extension_dirs(env: Env, home: Unknown) -> Result<Vec<String>> {
    let home = Some(home);
    let home = checked::opt_string(&env, home, "home").or_else(|e| throw(&env, e))?;
    let home = home
        .map(PathBuf::from)
        .or_else(|| crate::js::runtime::host::capture(&env).home)
        .unwrap_or_default();
    Ok(discovery::default_extension_dirs(&home)
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

/// Find the adt-ls binary, in this order: `opts.explicitPath` or the `ADT_LS_PATH` environment
/// variable (must be a file; no fall-through), `<repoRoot>/vendor/adt-ls/<platform sub-path>`,
/// then the newest `sapse.adt-vscode-<version>` install pooled across the editor extension
/// directories (VS Code, Cursor, VS Code Insiders). `createAdtLs` calls it unless `adtLs.path`
/// is given.
///
/// @returns the absolute path of the binary
/// @throws Error `Explicit adt-ls binary is not a file: <path>. Check adtLs.path / ADT_LS_PATH.`
/// @throws Error `adt-ls binary not found. Set ADT_LS_PATH, drop it in vendor/adt-ls/, or install
/// the 'sapse.adt-vscode' extension. Tried:` followed by one line per candidate path
/// @throws Error `Unsupported platform: <platform>`
/// @example
/// ```ts
/// const bin = resolveAdtLsPath();                                 // discovered
/// const mine = resolveAdtLsPath({ explicitPath: '/opt/adt-ls' }); // must exist
/// ```
#[napi(ts_args_type = "opts?: DiscoverOptions")]
pub fn resolve_adt_ls_path(env: Env, opts: Unknown) -> Result<String> {
    let opts = Some(opts);
    let o = discover_options(&env, opts).or_else(|e| throw(&env, e))?;
    match discovery::resolve_adt_ls_path(&o) {
        Ok(p) => Ok(p.to_string_lossy().into_owned()),
        Err(e) => throw(&env, e),
    }
}

fn discover_options(env: &Env, opts: Option<Unknown>) -> EngineResult<DiscoverOptions> {
    let mut o = DiscoverOptions::from_host(&crate::js::runtime::host::capture(env));
    let Some(opts) = checked::opt_object(env, opts, "opts")? else {
        return Ok(o);
    };
    let given = Discover::read(env, &opts, "opts")?;
    o.explicit_path = given.explicit_path;
    o.repo_root = given.repo_root.map(PathBuf::from);
    o.extensions_dir = given.extensions_dir.map(PathBuf::from);
    o.extensions_dirs = given
        .extensions_dirs
        .map(|v| v.into_iter().map(PathBuf::from).collect());
    o.platform = given.platform;
    o.arch = given.arch;
    Ok(o)
}

/// The argument list adt-ls is started with:
/// `[...extraArgs, '-Djco.trace_path', dataDir, '-data', dataDir, '--pipe=' + pipeName]`.
/// `extraArgs` (JVM or JCo flags such as `-Djco.middleware.snc_lib=…`, or `-consoleLog`) come
/// first, where JVM launchers expect them. Pure: no I/O.
#[inline_ts(SpawnArgsOptions)]
#[napi(ts_args_type = "opts: SpawnArgsOptions")]
pub fn compose_spawn_args(env: Env, opts: Unknown) -> Result<Vec<String>> {
    let opts = Some(opts);
    spawn_args(&env, opts).or_else(|e| throw(&env, e))
}

fn spawn_args(env: &Env, opts: Option<Unknown>) -> EngineResult<Vec<String>> {
    let given = SpawnArgs::from_js(env, opts, "opts")?;
    let extra = given.extra_args.unwrap_or_default();
    let (data_dir, pipe_name) = (given.data_dir, given.pipe_name);
    Ok(args::compose_spawn_args(&data_dir, &pipe_name, &extra))
}

/// Apply LSP text edits to a text and return the result (pure). Positions are 0-based and count
/// UTF-16 code units, like JavaScript string indices; each position is clamped to the text (a
/// line past the last means its end). All edits refer to the original text, so one never
/// shifts another; several insertions at one position appear last-given first, as in 0.5.0.
/// Applied in one pass: time and output grow with the text plus the edits.
/// `navigation.format` uses it on adt-ls's `textDocument/formatting` edits.
///
/// @throws Error `edits[<i>] starts after its end (…): a TextEdit range must not be reversed`
/// or `edits[<i>] and edits[<j>] overlap: LSP text edits must not overlap` (code
/// `ERR_INVALID_TEXT_EDIT`, with `editIndex` and, for an overlap, `otherEditIndex`)
///
/// @example
/// ```ts
/// applyTextEdits('DATA x.', [{ range: { start: { line: 0, character: 5 }, end: { line: 0, character: 6 } }, newText: 'lv_x' }])
/// // 'DATA lv_x.'
/// ```
#[napi(ts_args_type = "text: string, edits: TextEdit[]")]
pub fn apply_text_edits(env: Env, text: Unknown, edits: Unknown) -> Result<Utf16String> {
    let text = Some(text);
    let edits = Some(edits);
    let text = match text.filter(|t| matches!(t.get_type(), Ok(ValueType::String))) {
        Some(t) => values::utf16_string(&env, &t)?,
        None => {
            let got = checked::received(&env, text.as_ref());
            return throw(&env, arg_error::type_error("text", "a string", &got));
        }
    };
    let edits = edits_arg(&env, edits).or_else(|e| throw(&env, e))?;
    if edits.is_empty() {
        return Ok(text);
    }
    match text::apply_text_edits_utf16(&text, &edits) {
        Ok(out) => Ok(Utf16String::from(out)),
        Err(e) => throw(&env, e.into_error("")),
    }
}

/// The `edits` argument: JSON text parsed straight into edits (no intermediate JSON tree,
/// which took about 2 KB per edit); `undefined` and `null` are no edits.
fn edits_arg(env: &Env, edits: Option<Unknown>) -> EngineResult<Vec<TextEdit>> {
    let Some(text) = checked::opt_json_text(env, edits, "edits")? else {
        return Ok(Vec::new());
    };
    if !text.starts_with('[') {
        return match serde_json::from_str::<Value>(&text) {
            Ok(Value::Null) => Ok(Vec::new()),
            other => Err(arg_error::type_error(
                "edits",
                "an array of TextEdit",
                &Received::of_json(other.ok().as_ref()),
            )),
        };
    }
    serde_json::from_str(&text).map_err(|e| {
        EngineError::coded(
            codes::INVALID_ARG_VALUE,
            format!("edits must be an array of TextEdit {{range, newText}}: {e}"),
        )
    })
}

/// Decode LSP semantic tokens (`textDocument/semanticTokens/full`'s `data`: a flat array of
/// delta-encoded 5-tuples `[Δline, Δstart, length, typeIndex, modifierBits]`) into tokens with
/// absolute 0-based positions and the legend's type and modifier names (pure). `undefined`
/// gives `[]`; a trailing incomplete tuple is ignored. `navigation.semanticTokens` uses it with
/// the legend adt-ls advertised in `initialize`. Each legend name is one string, shared by every
/// token that names it.
///
/// @throws Error `the decoded semantic tokens would hold <n> modifier names, more than the <limit>
/// allowed …` (code `ERR_SEMANTIC_TOKENS_TOO_LARGE`) past 32 modifier names per token plus
/// 1,048,576 in all: only a legend of more than 32 modifiers gets there (modifier bit `b` names
/// entries `b`, `b + 32`, …)
#[napi(
    ts_args_type = "data: number[] | undefined, legend: SemanticTokensLegend",
    ts_return_type = "DecodedToken[]"
)]
pub fn decode_semantic_tokens(env: Env, data: Unknown, legend: Unknown) -> Result<Raw> {
    let data = Some(data);
    let legend = Some(legend);
    let (data, legend) = semantic_args(&env, data, legend).or_else(|e| throw(&env, e))?;
    let decoded =
        text::decode_semantic_tokens(data.as_deref(), &legend).or_else(|e| throw(&env, e))?;
    crate::js::runtime::semantic_tokens::tokens_to_js(&env, &legend, &decoded).map(Raw)
}

fn semantic_args(
    env: &Env,
    data: Option<Unknown>,
    legend: Option<Unknown>,
) -> EngineResult<(Option<Vec<i64>>, Legend)> {
    let data = match checked::opt_json(env, data, "data")? {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::Number(_) => Ok(js_number_to_i64(v)),
                    other => Err(arg_error::type_error(
                        &format!("data[{i}]"),
                        "a number",
                        &Received::of_json(Some(other)),
                    )),
                })
                .collect::<EngineResult<Vec<i64>>>()?,
        ),
        Some(other) => {
            return Err(arg_error::type_error(
                "data",
                "an array of numbers",
                &Received::of_json(Some(&other)),
            ))
        }
    };
    let legend_obj = checked::object(env, legend, "legend")?;
    let names = |key: &str| {
        Option::<Vec<String>>::from_property(env, &legend_obj, key, &format!("legend.{key}"))
    };
    let (token_types, token_modifiers) = (names("tokenTypes")?, names("tokenModifiers")?);
    let legend = Legend {
        token_types: token_types.unwrap_or_default(),
        token_modifiers: token_modifiers.unwrap_or_default(),
    };
    Ok((data, legend))
}

fn js_number_to_i64(v: &Value) -> i64 {
    match v.as_f64() {
        Some(f) if f.is_finite() => f.trunc() as i64,
        _ => 0,
    }
}

/// Unwrap the result of one of adt-ls's MCP tools (as `raw.tool` returns it) into
/// `{ ok, data, text }`: `text` is `content[0].text` (or `''`), `ok` is `!isError`, and `data` is
/// the parsed `text` when it is JSON, else `structuredContent`, else `text`. The text is
/// preferred because `structuredContent` is a schema projection that can lose fields (e.g.
/// `fetch_services` drops `odataVersion`). Never throws for a tool failure: check `ok`.
///
/// @example
/// ```ts
/// const { ok, data, text } = parseFederated(await adt.raw.tool('abap_list_destinations'));
/// if (!ok) throw new Error(text);
/// ```
#[napi(
    ts_args_type = "res: unknown",
    ts_return_type = "{\
        \n  /** `false` when the tool reported an error (`isError`). */\
        \n  ok: boolean\
        \n  /** `text` parsed when it is JSON, else `structuredContent`, else `text`. */\
        \n  data: unknown\
        \n  /** The first content block's text (`''` when there is none). */\
        \n  text: string\
        \n}"
)]
pub fn parse_federated(env: Env, res: Unknown) -> Result<Json> {
    let res = Some(res);
    let value = match checked::opt_json(&env, res, "res") {
        Ok(Some(v @ Value::Object(_))) => v,
        Ok(other) => {
            let got = Received::of_json(other.as_ref());
            return throw(&env, arg_error::type_error("res", "an object", &got));
        }
        Err(e) => return throw(&env, e),
    };
    let parsed = federated::parse_federated(&value);
    Ok(Json(Some(
        serde_json::json!({"ok": parsed.ok, "data": parsed.data, "text": parsed.text}),
    )))
}
