//! Plain exported functions: version gate, discovery, spawn argv, text helpers and the
//! federated-result unwrapper. Each converts its arguments and calls the engine.

use super::errors::throw;
use super::json;
use super::values::{Json, OrUndefined};
use crate::discovery::{self, DiscoverOptions};
use crate::error::{codes, Error as EngineError};
use crate::text::{self, Legend, TextEdit};
use crate::{federated, process::args, version};
use napi::bindgen_prelude::*;
use serde_json::Value;
use std::path::PathBuf;

#[napi]
pub const MINIMUM_ADT_LS_VERSION: &str = "1.1.2";
#[napi]
pub const REQUIRED_SAPSE_ADT_VSCODE_VERSION: &str = "1.1.2";
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

/// `[major, minor, patch]` of a version like `1.1.2.202608131517`, else `undefined`.
#[napi(
    ts_args_type = "version?: string",
    ts_return_type = "ParsedAdtLsVersion | undefined"
)]
pub fn parse_adt_ls_version(version: Option<String>) -> OrUndefined<Vec<f64>> {
    OrUndefined(
        version
            .as_deref()
            .and_then(version::parse_adt_ls_version)
            .map(|v| v.to_vec()),
    )
}

/// True when `version` is at least `MINIMUM_ADT_LS_VERSION`.
#[napi(ts_args_type = "version?: string")]
pub fn is_supported_adt_ls_version(version: Option<String>) -> bool {
    version::is_supported_adt_ls_version(version.as_deref())
}

/// Throws the reference's "Unsupported adt-ls version" error unless supported.
#[napi(ts_args_type = "version?: string")]
pub fn assert_supported_adt_ls_version(env: Env, version: Option<String>) -> Result<()> {
    match version::assert_supported_adt_ls_version(version.as_deref()) {
        Ok(()) => Ok(()),
        Err(e) => throw(&env, e),
    }
}

/// The path of the adt-ls binary below an extension's `adt-ls/` folder, as segments.
#[napi(ts_args_type = "platform?: string, arch?: string")]
pub fn platform_sub_path(
    env: Env,
    platform: Option<String>,
    arch: Option<String>,
) -> Result<Vec<String>> {
    let platform = platform.unwrap_or_else(|| discovery::node_platform().to_string());
    let arch = arch.unwrap_or_else(|| discovery::node_arch().to_string());
    discovery::platform_sub_path(&platform, &arch).or_else(|e| throw(&env, e))
}

/// The VS Code, Cursor and VS Code Insiders extension roots under `home`.
#[napi(ts_args_type = "home?: string")]
pub fn default_extension_dirs(env: Env, home: Option<String>) -> Vec<String> {
    let home = home
        .map(PathBuf::from)
        .or_else(|| super::host::capture(&env).home)
        .unwrap_or_default();
    discovery::default_extension_dirs(&home)
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// Find the adt-ls binary: explicit path / `ADT_LS_PATH`, `vendor/adt-ls/`, then the newest
/// `sapse.adt-vscode` install across VS Code, Cursor and Insiders.
#[napi(ts_args_type = "opts?: DiscoverOptions")]
pub fn resolve_adt_ls_path(env: Env, opts: Option<Object>) -> Result<String> {
    let mut o = DiscoverOptions::from_host(&super::host::capture(&env));
    if let Some(opts) = opts {
        o.explicit_path = opts.get::<String>("explicitPath")?;
        o.repo_root = opts.get::<String>("repoRoot")?.map(PathBuf::from);
        o.extensions_dir = opts.get::<String>("extensionsDir")?.map(PathBuf::from);
        o.extensions_dirs = opts
            .get::<Vec<String>>("extensionsDirs")?
            .map(|v| v.into_iter().map(PathBuf::from).collect());
        o.platform = opts.get::<String>("platform")?;
        o.arch = opts.get::<String>("arch")?;
    }
    match discovery::resolve_adt_ls_path(&o) {
        Ok(p) => Ok(p.to_string_lossy().into_owned()),
        Err(e) => throw(&env, e),
    }
}

/// adt-ls's argv: `[...extraArgs, '-Djco.trace_path', dataDir, '-data', dataDir, '--pipe=' + pipeName]`.
#[napi(ts_args_type = "opts: { dataDir: string; pipeName: string; extraArgs?: string[] }")]
pub fn compose_spawn_args(opts: Object) -> Result<Vec<String>> {
    let data_dir = opts.get::<String>("dataDir")?.unwrap_or_default();
    let pipe_name = opts.get::<String>("pipeName")?.unwrap_or_default();
    let extra = opts.get::<Vec<String>>("extraArgs")?.unwrap_or_default();
    Ok(args::compose_spawn_args(&data_dir, &pipe_name, &extra))
}

/// Apply LSP text edits (positions in UTF-16 code units, like JS string indices).
#[napi(ts_args_type = "text: string, edits: TextEdit[]")]
pub fn apply_text_edits(
    env: Env,
    text: Utf16String,
    edits: Option<Unknown>,
) -> Result<Utf16String> {
    let edits: Vec<TextEdit> = match json::from_js_opt(&env, edits)? {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => match serde_json::from_value(v) {
            Ok(e) => e,
            Err(e) => {
                return throw(
                    &env,
                    EngineError::coded(codes::INVALID_ARG, format!("invalid text edits: {e}")),
                )
            }
        },
    };
    if edits.is_empty() {
        return Ok(text);
    }
    Ok(Utf16String::from(text::apply_text_edits_utf16(
        &text, &edits,
    )))
}

/// Decode LSP semantic tokens (5-tuples) with the legend's names.
#[napi(
    ts_args_type = "data: number[] | undefined, legend: SemanticTokensLegend",
    ts_return_type = "DecodedToken[]"
)]
pub fn decode_semantic_tokens(env: Env, data: Option<Unknown>, legend: Unknown) -> Result<Json> {
    let data: Option<Vec<i64>> = match json::from_js_opt(&env, data)? {
        Some(Value::Array(items)) => Some(items.iter().map(js_number_to_i64).collect()),
        _ => None,
    };
    let legend: Legend = match json::from_js(&env, legend)? {
        Some(v) => serde_json::from_value(v).unwrap_or_default(),
        None => Legend::default(),
    };
    let tokens = text::decode_semantic_tokens(data.as_deref(), &legend);
    Ok(Json(Some(
        serde_json::to_value(tokens).unwrap_or(Value::Array(Vec::new())),
    )))
}

fn js_number_to_i64(v: &Value) -> i64 {
    match v.as_f64() {
        Some(f) if f.is_finite() => f.trunc() as i64,
        _ => 0,
    }
}

/// Unwrap an MCP tool result into `{ok, data, text}` (text preferred over structuredContent).
#[napi(
    ts_args_type = "res: unknown",
    ts_return_type = "{ ok: boolean; data: unknown; text: string }"
)]
pub fn parse_federated(env: Env, res: Unknown) -> Result<Json> {
    let value = json::from_js(&env, res)?.unwrap_or(Value::Null);
    let parsed = federated::parse_federated(&value);
    Ok(Json(Some(
        serde_json::json!({"ok": parsed.ok, "data": parsed.data, "text": parsed.text}),
    )))
}
