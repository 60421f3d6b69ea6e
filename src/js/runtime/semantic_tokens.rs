//! Decoded semantic tokens as JS objects `{line, character, length, tokenType,
//! tokenModifiers}` (the reference's shape), built from the indices
//! [`crate::lsp::text::decode_semantic_tokens`] returns, for `decodeSemanticTokens` and
//! `navigation.semanticTokens`. Each legend name a token uses becomes one JS string, made
//! once and shared by reference by every token that names it (as the reference's
//! `legend.tokenModifiers.filter` shares the legend's strings), so the result grows with the
//! token data, not with tokens × name length.

use super::json;
use super::settle::check;
use crate::client::TokensReply;
use crate::lsp::text::{decode_semantic_tokens, DecodedTokens, Legend, TokenIndices, TokenType};
use napi::bindgen_prelude::*;
use napi::sys;
use serde_json::Value;
use std::ptr;

/// Tokens built between two handle scopes: the handles of one batch are released before
/// the next, so a long token list never piles up handles.
const BATCH: usize = 1024;

/// The property names of a token, in the reference's order.
const KEYS: [&str; 5] = ["line", "character", "length", "tokenType", "tokenModifiers"];

/// What every token of one result shares: the property names and the legend's strings
/// (`None` for names no token uses).
struct Shared {
    keys: [sys::napi_value; 5],
    types: Vec<Option<sys::napi_value>>,
    modifiers: Vec<Option<sys::napi_value>>,
}

/// `navigation.semanticTokens`' JS result `{legend, tokens}` from the engine's
/// `{legend, data}` ([`TokensReply`]).
pub(crate) fn navigation_result(env: &Env, value: &Value) -> Result<sys::napi_value> {
    let reply = TokensReply::from_value(value);
    let decoded = decode_semantic_tokens(reply.data.as_deref(), &reply.names)
        .map_err(|e| Error::from_reason(e.message))?;
    let tokens = tokens_to_js(env, &reply.names, &decoded)?;
    let legend = json::to_js(env, &reply.legend)?.raw();
    let mut out = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `out` is a local the call
    // writes the new object to.
    check(unsafe { sys::napi_create_object(env.raw(), &mut out) })?;
    let props = [
        property(js_key(env, "legend")?, legend),
        property(js_key(env, "tokens")?, tokens),
    ];
    // SAFETY: `out` was just made in this scope; `props` holds two valid descriptors (key strings
    // and values made above in this scope, no callbacks) that outlive the call.
    check(unsafe { sys::napi_define_properties(env.raw(), out, props.len(), props.as_ptr()) })?;
    Ok(out)
}

/// The JS array of `decoded`'s tokens with `legend`'s names.
pub(crate) fn tokens_to_js(
    env: &Env,
    legend: &Legend,
    decoded: &DecodedTokens,
) -> Result<sys::napi_value> {
    let shared = shared(env, legend, decoded)?;
    let mut array = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `array` is a local the call
    // writes the new array to.
    check(unsafe {
        sys::napi_create_array_with_length(env.raw(), decoded.tokens.len(), &mut array)
    })?;
    for (batch, tokens) in decoded.tokens.chunks(BATCH).enumerate() {
        let _scope = HandleScope::open(env)?;
        for (i, token) in tokens.iter().enumerate() {
            let object = token_to_js(env, &shared, decoded, token)?;
            let index = u32::try_from(batch * BATCH + i)
                .map_err(|_| Error::from_reason("too many semantic tokens"))?;
            // SAFETY: `array` was made before the batch's handle scope, so it is still live;
            // `object` was made in the open batch scope.
            check(unsafe { sys::napi_set_element(env.raw(), array, index, object) })?;
        }
    }
    Ok(array)
}

/// The property names and the legend names some token uses, as JS strings.
fn shared(env: &Env, legend: &Legend, decoded: &DecodedTokens) -> Result<Shared> {
    let mut keys = [ptr::null_mut(); 5];
    for (slot, key) in keys.iter_mut().zip(KEYS) {
        *slot = js_key(env, key)?;
    }
    let mut used_types = vec![false; legend.token_types.len()];
    for t in &decoded.tokens {
        if let TokenType::Legend(i) = t.token_type {
            used_types[i] = true;
        }
    }
    let used_bits = decoded.used_modifier_bits();
    let types = strings(env, &legend.token_types, |i| used_types[i])?;
    let modifiers = strings(env, &legend.token_modifiers, |i| {
        used_bits & (1u32 << (i % 32)) != 0
    })?;
    Ok(Shared {
        keys,
        types,
        modifiers,
    })
}

/// One JS string per name that `used` selects.
fn strings(
    env: &Env,
    names: &[String],
    used: impl Fn(usize) -> bool,
) -> Result<Vec<Option<sys::napi_value>>> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| used(i).then(|| json::js_string(env, name)).transpose())
        .collect()
}

/// One token object.
fn token_to_js(
    env: &Env,
    shared: &Shared,
    decoded: &DecodedTokens,
    t: &TokenIndices,
) -> Result<sys::napi_value> {
    let token_type = match t.token_type {
        TokenType::Legend(i) => {
            shared.types[i].ok_or_else(|| Error::from_reason("token type not made"))?
        }
        TokenType::Unknown(n) => json::js_string(env, &n.to_string())?,
    };
    let names: Vec<sys::napi_value> = decoded
        .modifiers(t)
        .map(|i| shared.modifiers[i].ok_or_else(|| Error::from_reason("token modifier not made")))
        .collect::<Result<_>>()?;
    let mut modifiers = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `modifiers` is a local the
    // call writes the new array to.
    check(unsafe { sys::napi_create_array_with_length(env.raw(), names.len(), &mut modifiers) })?;
    for (i, name) in (0u32..).zip(names) {
        // SAFETY: `modifiers` was just made in this scope; `name` is a shared legend string made
        // before the batch scope, still live.
        check(unsafe { sys::napi_set_element(env.raw(), modifiers, i, name) })?;
    }
    let values = [
        int(env, t.line)?,
        int(env, t.character)?,
        int(env, t.length)?,
        token_type,
        modifiers,
    ];
    let props: [sys::napi_property_descriptor; 5] =
        std::array::from_fn(|i| property(shared.keys[i], values[i]));
    let mut object = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `object` is a local the call
    // writes the new object to.
    check(unsafe { sys::napi_create_object(env.raw(), &mut object) })?;
    // SAFETY: `object` was just made; `props` holds five valid descriptors whose keys and values
    // are live handles (the keys made before the batch scope, the values in it), with no callbacks,
    // and outlives the call.
    check(unsafe { sys::napi_define_properties(env.raw(), object, props.len(), props.as_ptr()) })?;
    Ok(object)
}

/// A plain data property (writable, enumerable, configurable), as an object literal makes.
fn property(name: sys::napi_value, value: sys::napi_value) -> sys::napi_property_descriptor {
    use sys::PropertyAttributes::{configurable, enumerable, writable};
    sys::napi_property_descriptor {
        utf8name: ptr::null(),
        name,
        method: None,
        getter: None,
        setter: None,
        value,
        attributes: writable | enumerable | configurable,
        data: ptr::null_mut(),
    }
}

fn js_key(env: &Env, key: &str) -> Result<sys::napi_value> {
    json::js_string(env, key)
}

/// A JS number from an engine integer (as JSON would carry it).
fn int(env: &Env, n: i64) -> Result<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `out` is a local the call
    // writes the number to.
    check(unsafe { sys::napi_create_int64(env.raw(), n, &mut out) })?;
    Ok(out)
}

/// A handle scope, closed when dropped (also on an early error).
struct HandleScope<'e> {
    env: &'e Env,
    scope: sys::napi_handle_scope,
}

impl<'e> HandleScope<'e> {
    fn open(env: &'e Env) -> Result<HandleScope<'e>> {
        let mut scope = ptr::null_mut();
        // SAFETY: `env` is the env of the current call on the JS thread; the guard closes the scope
        // when dropped, and it lives only for one batch, so scopes close in the reverse order of
        // opening.
        check(unsafe { sys::napi_open_handle_scope(env.raw(), &mut scope) })?;
        Ok(HandleScope { env, scope })
    }
}

impl Drop for HandleScope<'_> {
    fn drop(&mut self) {
        // SAFETY: `scope` was opened by `open` on this env and is the innermost open scope; the
        // handles made in it are not used afterwards (each token was stored into the array, which
        // belongs to the outer scope).
        unsafe { sys::napi_close_handle_scope(self.env.raw(), self.scope) };
    }
}
