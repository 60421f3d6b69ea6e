//! Symbol-keyed properties, which napi-rs's object API (string keys) cannot express: the
//! registered symbol of a description, a well-known symbol such as `Symbol.asyncIterator`,
//! reading and setting a property by a key value, and defining a data property with its
//! attributes (a non-enumerable method, say).

use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use std::ptr;

/// `Symbol.for(desc)`.
pub fn symbol_for(env: &Env, desc: &str) -> Result<sys::napi_value> {
    // SAFETY: `env` is the live env of the current call on the JS thread; the symbol made is
    // a handle of that call's scope.
    unsafe { Symbol::to_napi_value(env.raw(), Symbol::for_desc(desc)) }
}

/// `Symbol[name]` of the global `Symbol` (a well-known symbol such as `asyncIterator`).
pub fn well_known_symbol<'env>(env: &'env Env, name: &str) -> Result<Unknown<'env>> {
    let symbol = env.get_global()?.get_named_property::<Unknown>("Symbol")?;
    // SAFETY: `env` is the live env of the current call on the JS thread and `symbol` a handle
    // of that call's scope, just read from the global object; the `Object` only wraps the
    // handle and is used within this call.
    let symbol = unsafe { Object::from_napi_value(env.raw(), symbol.raw())? };
    symbol.get_named_property::<Unknown>(name)
}

/// `obj[key] = value` for a key value (a symbol, say).
pub fn set(env: &Env, obj: &Object, key: sys::napi_value, value: sys::napi_value) -> Result<()> {
    // SAFETY: `env` is the live env of the current call on the JS thread; `obj`, `key` and
    // `value` are handles the caller made or got in this call's scope.
    check_status!(unsafe { sys::napi_set_property(env.raw(), obj.raw(), key, value) })
}

/// `obj[key]` for a key value; `None` when reading it fails (a getter that throws).
pub fn get(env: &Env, obj: &Object, key: sys::napi_value) -> Option<sys::napi_value> {
    let mut value = ptr::null_mut();
    // SAFETY: `env` is the live env of the current call on the JS thread; `obj` and `key` are
    // handles of this call's scope and `value` a local the call writes the result to.
    let status = unsafe { sys::napi_get_property(env.raw(), obj.raw(), key, &mut value) };
    (status == sys::Status::napi_ok).then_some(value)
}

/// `obj[key] = value` as a writable, configurable, non-enumerable property.
pub fn define_hidden(env: &Env, obj: &Object, key: &Unknown, value: sys::napi_value) -> Result<()> {
    let status = define(env, obj.raw(), key.raw(), value, HIDDEN);
    if status != sys::Status::napi_ok {
        return Err(Error::from_reason("could not define the property"));
    }
    Ok(())
}

/// Writable and configurable, not enumerable: how a class method is defined.
pub(crate) const HIDDEN: sys::napi_property_attributes =
    sys::PropertyAttributes::writable | sys::PropertyAttributes::configurable;

/// `target[key] = value` as a data property with `attributes` (`napi_define_properties`);
/// the Node-API status.
pub(crate) fn define(
    env: &Env,
    target: sys::napi_value,
    key: sys::napi_value,
    value: sys::napi_value,
    attributes: sys::napi_property_attributes,
) -> sys::napi_status {
    let descriptor = sys::napi_property_descriptor {
        utf8name: ptr::null(),
        name: key,
        method: None,
        getter: None,
        setter: None,
        value,
        attributes,
        data: ptr::null_mut(),
    };
    // SAFETY: `env` is the live env of the current call on the JS thread; `target`, `key` and
    // `value` are handles the caller made or got in this call's scope; `descriptor` is one
    // valid descriptor (no name string, no callbacks) that outlives the call, which copies
    // what it needs.
    unsafe { sys::napi_define_properties(env.raw(), target, 1, &descriptor) }
}
