//! Which JS engine hosts the addon: Node (V8) or Bun (JavaScriptCore), for the few places
//! that differ (libuv, async stack traces).

use napi::bindgen_prelude::*;

/// True under Bun (`process.versions.bun`); true as well when it cannot be told, so callers
/// take their portable path.
pub fn is_bun(env: &Env) -> bool {
    let versions = env
        .get_global()
        .and_then(|g| g.get_named_property::<Object>("process"))
        .and_then(|p| p.get_named_property::<Object>("versions"));
    match versions {
        Ok(v) => v.has_named_property("bun").unwrap_or(true),
        Err(_) => true,
    }
}
