//! `Symbol.asyncDispose` for `await using`: the client object gets its own `dispose`
//! function under the symbol (same function, same promise semantics); the `AdtLsDriver` and
//! `AdtLsMcpClient` prototypes get a method forwarding to `this.dispose()` / `this.close()`.
//! Where the runtime has no `Symbol.asyncDispose`, nothing is added.

use super::{call, properties};
use napi::bindgen_prelude::*;
use napi::{sys, JsValue};

/// The runtime's `Symbol.asyncDispose`, when it has one.
fn async_dispose_symbol(env: &Env) -> Option<sys::napi_value> {
    let symbol = properties::well_known_symbol(env, "asyncDispose").ok()?;
    matches!(symbol.get_type(), Ok(ValueType::Symbol)).then(|| symbol.raw())
}

/// `target[Symbol.asyncDispose] = value` (non-enumerable, like a class method).
fn define(env: &Env, target: sys::napi_value, value: sys::napi_value) -> Result<()> {
    let Some(key) = async_dispose_symbol(env) else {
        return Ok(());
    };
    let status = properties::define(env, target, key, value, properties::HIDDEN);
    if status != sys::Status::napi_ok {
        return Err(Error::from_reason("could not define Symbol.asyncDispose"));
    }
    Ok(())
}

/// Put `dispose` (the client's own dispose function) under `Symbol.asyncDispose` of `obj`.
pub fn attach(env: &Env, obj: &Object, dispose: sys::napi_value) -> Result<()> {
    define(env, obj.raw(), dispose)
}

/// Give `exports[class].prototype` a `[Symbol.asyncDispose]()` calling `this[method]()`.
pub fn install_on_class(
    env: &Env,
    exports: &Object,
    class: &str,
    method: &'static str,
) -> Result<()> {
    let ctor = exports.get_named_property::<Unknown>(class)?;
    // A class is a function; read its `prototype` through the object view of it.
    // SAFETY: `env` is the env of the current call on the JS thread (module init) and `ctor` the
    // exported class, read in its scope; the `Object` only wraps the handle for the `prototype`
    // read (Node-API checks the type).
    let ctor = unsafe { Object::from_napi_value(env.raw(), ctor.raw())? };
    let prototype = ctor.get_named_property::<Object>("prototype")?;
    let forward =
        env.create_function_from_closure::<(), Unknown, _>("[Symbol.asyncDispose]", move |ctx| {
            let this = ctx.this::<Object>()?;
            let target = this.get_named_property::<Unknown>(method)?;
            if !matches!(target.get_type(), Ok(ValueType::Function)) {
                return Err(Error::new(
                    Status::InvalidArg,
                    format!("[Symbol.asyncDispose] needs a receiver with {method}()"),
                ));
            }
            let result = call::call(ctx.env, this.raw(), target.raw(), &[])?;
            // SAFETY: `result` is the value `this[method]()` returned in this callback's scope on
            // `ctx.env`; it is only retyped for the return.
            Ok(unsafe { Unknown::from_raw_unchecked(ctx.env.raw(), result.raw()) })
        })?;
    define(env, prototype.raw(), forward.raw())
}
