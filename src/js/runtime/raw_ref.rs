//! A Node-API reference to a JS value that Rust keeps between calls on the JS thread (a
//! listener, an abort signal, a cached built-in such as `JSON.parse`). napi-rs's typed
//! references carry a lifetime or a finalizer per kind of value; these holders only need
//! "keep it (or watch it), give it back, let it go".

use napi::bindgen_prelude::*;
use napi::sys;
use std::ptr;

/// A reference made on, used on and deleted on one JS thread.
pub struct RawRef(sys::napi_ref);

impl RawRef {
    /// A reference that keeps `value` alive until [`RawRef::delete`].
    pub fn strong(env: &Env, value: sys::napi_value) -> Result<RawRef> {
        RawRef::with_count(env, value, 1)
    }

    /// A reference that does not keep `value` alive.
    pub fn weak(env: &Env, value: sys::napi_value) -> Result<RawRef> {
        RawRef::with_count(env, value, 0)
    }

    fn with_count(env: &Env, value: sys::napi_value, count: u32) -> Result<RawRef> {
        let mut reference = ptr::null_mut();
        // SAFETY: `env` is the env of the current call on the JS thread and `value` a handle of its
        // scope; the reference made is deleted by `delete` on this same thread (`RawRef` holds a
        // raw pointer, so it is neither `Send` nor `Sync`).
        check_status!(unsafe {
            sys::napi_create_reference(env.raw(), value, count, &mut reference)
        })?;
        Ok(RawRef(reference))
    }

    /// The value, or `None` once a weak one was collected (or the call failed).
    pub fn value(&self, env: &Env) -> Option<sys::napi_value> {
        let mut value = ptr::null_mut();
        // SAFETY: `self.0` was made on this JS thread's env and is not deleted yet (`delete`
        // consumes `self`); `value` is a local.
        let status = unsafe { sys::napi_get_reference_value(env.raw(), self.0, &mut value) };
        (status == sys::Status::napi_ok && !value.is_null()).then_some(value)
    }

    /// Let the value go.
    pub fn delete(self, env: &Env) {
        // SAFETY: `self.0` was made on this JS thread's env and is deleted only here, once
        // (`delete` takes `self` by value).
        unsafe { sys::napi_delete_reference(env.raw(), self.0) };
    }
}
