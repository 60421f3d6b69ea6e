//! The option declarations of adt-ls-native's N-API layer, each written once.
//!
//! - `#[js_options]` on a struct declares an options object: the `#[napi(object)]` interface
//!   napi-rs renders into `index.d.ts` (JSDoc included), plus, through the crate's
//!   `js_values!` (`src/js/runtime/option_types.rs`), the values struct with the known keys and
//!   the checked, path-aware reader. With `inline` it declares an object whose TypeScript is
//!   written inline in an export's signature: the values struct and reader only.
//! - `#[inline_ts(Name, …)]` on an export (or on a `#[napi] impl`) writes the named
//!   declarations' TypeScript into its `ts_args_type`, where the name stands.
//!
//! They are proc macros because doc comments that pass through `macro_rules!` reach napi-rs
//! as raw strings, which it renders verbatim, and because napi-rs reads `ts_args_type` as a
//! string literal, which only a macro that runs before it can write.

mod declarations;
mod inline;
mod options;
mod typescript;

use proc_macro::TokenStream;

/// Declare an options object once:
///
/// ```ignore
/// /// Docs of the interface (JSDoc in index.d.ts).
/// #[js_options(ForwardProxy)]
/// pub struct ForwardProxyOptions {
///     /// Docs of the field.
///     pub host: String,
///     #[js_read(Port)]
///     pub port: f64,
/// }
/// ```
///
/// emits `#[napi(object)] pub struct ForwardProxyOptions` as written, and
/// `pub struct ForwardProxy<'e>` with the same fields, each in its declared type or the type
/// of its `#[js_read(…)]`, with `ForwardProxy::KEYS` and `ForwardProxy::read(env, &obj, path)`.
/// Fields are read in declaration order, or in the order of `read(field, …)`.
///
/// `#[js_options(SpawnArgs, inline)]` emits only `SpawnArgs<'e>`: the struct's fields, in
/// their TypeScript-facing types, are what `#[inline_ts(…)]` writes into a signature.
#[proc_macro_attribute]
pub fn js_options(attr: TokenStream, item: TokenStream) -> TokenStream {
    options::js_options(attr.into(), item.into()).into()
}

/// Write the TypeScript of the named `#[js_options]` declarations (in
/// `src/js/binding/types/options.rs`) into the `ts_args_type` of the export it is put on, in
/// place of each name:
///
/// ```ignore
/// #[inline_ts(SpawnArgsOptions)]
/// #[napi(ts_args_type = "opts: SpawnArgsOptions")]
/// pub fn compose_spawn_args(env: Env, opts: Unknown) -> Result<Vec<String>> { … }
/// ```
///
/// declares `composeSpawnArgs(opts: { dataDir: string; pipeName: string; extraArgs?: string[] })`.
/// On a `#[napi] impl` (written above `#[napi]`) it does the same for every method.
#[proc_macro_attribute]
pub fn inline_ts(attr: TokenStream, item: TokenStream) -> TokenStream {
    inline::inline_ts(attr.into(), item.into()).into()
}
