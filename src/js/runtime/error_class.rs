//! `AdtLsError`: the class of every error the library creates. It is a `#[napi]` class (so
//! the generated loader exports it to `import` and `require` alike, both loading the same
//! `.node`) whose prototype is chained to `Error.prototype` at module init; library errors
//! are real `Error` objects (napi_create_error) re-parented onto its prototype, so
//! `instanceof AdtLsError` and `instanceof Error` both hold. It is not constructible from JS.
//! Argument errors are real `TypeError`/`RangeError`s (Node's convention) and so cannot also
//! inherit from `AdtLsError.prototype`: every library error carries a brand symbol, and
//! `AdtLsError[Symbol.hasInstance]` accepts branded errors, so `instanceof AdtLsError` holds
//! for them too.

use super::properties;
use napi::bindgen_prelude::*;
use napi::JsValue;
use std::cell::RefCell;

/// The class of every error adt-ls-native creates: `err instanceof AdtLsError` (and
/// `instanceof Error`) holds for every rejection and throw of the library, from `import` and
/// `require` alike. Each carries a stable `code` (see docs/errors.md), adt-ls's JSON-RPC `data`
/// where there is one, and the caller's stack. Not constructible: `new AdtLsError()` throws.
#[napi]
pub struct AdtLsError {}

thread_local! {
    /// `AdtLsError.prototype`, set once per JS thread (main or worker) at module init.
    static PROTO: RefCell<Option<ObjectRef<false>>> = const { RefCell::new(None) };
}

/// Chain `AdtLsError.prototype` to `Error.prototype` and remember it. `name` stays the
/// inherited `'Error'`, as 0.5.0's errors had it (`String(e)` is `Error: <message>`; see
/// docs/errors.md).
pub fn install(env: &Env, exports: &Object) -> Result<()> {
    let class: Object = exports.get_named_property_unchecked("AdtLsError")?;
    let proto: Object = class.get_named_property("prototype")?;
    let global = env.get_global()?;
    let object_ctor: Object = global.get_named_property_unchecked("Object")?;
    let set_proto: Function<FnArgs<(Object, Object)>, Unknown> =
        object_ctor.get_named_property("setPrototypeOf")?;
    let error_ctor: Object = global.get_named_property_unchecked("Error")?;
    let error_proto: Object = error_ctor.get_named_property("prototype")?;
    set_proto.call((proto, error_proto).into())?;
    set_proto.call((class, error_ctor).into())?;
    install_has_instance(env, &global, class, proto)?;
    // SAFETY: `env` is the env of the current call on the JS thread (module init) and `proto` is
    // `AdtLsError.prototype`, read in its scope; the strong reference made keeps it alive in
    // `PROTO` for the thread's lifetime.
    let reference = unsafe { ObjectRef::<false>::from_napi_value(env.raw(), proto.raw())? };
    PROTO.with(|slot| slot.replace(Some(reference)));
    Ok(())
}

/// The brand every library error carries (`Symbol.for`, so one per process).
const BRAND: &str = "adt-ls-native.error";

fn brand_key(env: &Env) -> Result<napi::sys::napi_value> {
    properties::symbol_for(env, BRAND)
}

/// `AdtLsError[Symbol.hasInstance] = v => v inherits AdtLsError.prototype || v is branded`.
fn install_has_instance(
    env: &Env,
    global: &napi::JsGlobal,
    class: Object,
    proto: Object,
) -> Result<()> {
    // SAFETY: `env` is the env of the current call on the JS thread (module init) and `proto` a
    // handle of its scope; the strong reference made moves into the closure, which reads it only on
    // this JS thread.
    let proto_ref = unsafe { ObjectRef::<false>::from_napi_value(env.raw(), proto.raw())? };
    let check = env.create_function_from_closure::<Unknown, bool, _>("[Symbol.hasInstance]", {
        move |ctx| {
            let env = &*ctx.env;
            let Ok(value) = ctx.get::<Unknown>(0) else {
                return Ok(false);
            };
            if !matches!(value.get_type()?, ValueType::Object | ValueType::Function) {
                return Ok(false);
            }
            let obj = value.coerce_to_object()?;
            let proto = proto_ref.get_value(env)?;
            if inherits_from(env, &obj, &proto)? {
                return Ok(true);
            }
            let key = brand_key(env)?;
            let mut branded = false;
            // SAFETY: `env` is the env of this `hasInstance` call; `obj` (the argument) and `key`
            // (the brand symbol just made) are handles of its scope; `branded` is a local.
            check_status!(unsafe {
                napi::sys::napi_has_property(env.raw(), obj.raw(), key, &mut branded)
            })?;
            Ok(branded)
        }
    })?;
    let symbol_ctor: Object = global.get_named_property_unchecked("Symbol")?;
    let has_instance: Unknown = symbol_ctor.get_named_property("hasInstance")?;
    let object_ctor: Object = global.get_named_property_unchecked("Object")?;
    let define: Unknown = object_ctor.get_named_property("defineProperty")?;
    let mut descriptor = Object::new(env)?;
    descriptor.set_named_property("value", check)?;
    super::call::call(
        env,
        object_ctor.raw(),
        define.raw(),
        &[class.raw(), has_instance.raw(), descriptor.raw()],
    )?;
    Ok(())
}

/// True when `proto` is on `obj`'s prototype chain (bounded: a chain is short).
fn inherits_from(env: &Env, obj: &Object, proto: &Object) -> Result<bool> {
    let mut current = obj.raw();
    for _ in 0..64 {
        let mut next = std::ptr::null_mut();
        // SAFETY: `env` is the env of the current call on the JS thread; `current` is `obj` or a
        // prototype read in an earlier iteration, handles of its scope; `next` is a local.
        check_status!(unsafe { napi::sys::napi_get_prototype(env.raw(), current, &mut next) })?;
        let mut kind = 0;
        // SAFETY: `next` was just written by napi_get_prototype in this scope; `kind` is a local.
        check_status!(unsafe { napi::sys::napi_typeof(env.raw(), next, &mut kind) })?;
        if kind != napi::sys::ValueType::napi_object {
            return Ok(false);
        }
        let mut same = false;
        // SAFETY: `next` and `proto` are handles of the current scope; `same` is a local.
        check_status!(unsafe {
            napi::sys::napi_strict_equals(env.raw(), next, proto.raw(), &mut same)
        })?;
        if same {
            return Ok(true);
        }
        current = next;
    }
    Ok(false)
}

/// Mark `error` as a library error (see the module doc).
pub fn brand(env: &Env, error: &Object) -> Result<()> {
    let key = brand_key(env)?;
    // SAFETY: `env` is the env of the current call on the JS thread; the boolean made is a handle
    // of its scope.
    let value = unsafe { bool::to_napi_value(env.raw(), true)? };
    let attributes = napi::sys::PropertyAttributes::default;
    check_status!(properties::define(env, error.raw(), key, value, attributes))
}

/// Re-parent a freshly created error onto `AdtLsError.prototype` (no-op before install).
pub fn adopt(env: &Env, error: Object) -> Result<()> {
    PROTO.with(|slot| {
        let slot = slot.borrow();
        let Some(proto) = slot.as_ref() else {
            return Ok(());
        };
        let proto = proto.get_value(env)?;
        let object_ctor: Object = env.get_global()?.get_named_property_unchecked("Object")?;
        let set_proto: Function<FnArgs<(Object, Object)>, Unknown> =
            object_ctor.get_named_property("setPrototypeOf")?;
        set_proto.call((error, proto).into())?;
        Ok(())
    })
}

/// True for an object carrying the library's brand (an error this library created).
pub fn is_library_error(env: &Env, value: napi::sys::napi_value) -> bool {
    let mut kind = 0;
    // SAFETY: `env` is the env of the current call on the JS thread and `value` a handle the caller
    // holds in its scope (a rejection reason or a thrown value); `kind` is a local.
    if unsafe { napi::sys::napi_typeof(env.raw(), value, &mut kind) } != napi::sys::Status::napi_ok
        || kind != napi::sys::ValueType::napi_object
    {
        return false;
    }
    let Ok(key) = brand_key(env) else {
        return false;
    };
    let mut branded = false;
    // SAFETY: `value` is an object (checked above) and `key` the brand symbol, both handles of the
    // current scope; `branded` is a local.
    let status = unsafe { napi::sys::napi_has_own_property(env.raw(), value, key, &mut branded) };
    status == napi::sys::Status::napi_ok && branded
}
