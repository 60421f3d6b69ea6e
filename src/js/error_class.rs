//! `AdtLsError`: the class of every error the library creates. It is a `#[napi]` class (so
//! the generated loader exports it to `import` and `require` alike, both loading the same
//! `.node`) whose prototype is chained to `Error.prototype` at module init; library errors
//! are real `Error` objects (napi_create_error) re-parented onto its prototype, so
//! `instanceof AdtLsError` and `instanceof Error` both hold. It is not constructible from JS.
//! Also the call-site capture that gives rejections the caller's frames (`Error
//! .captureStackTrace` on a plain object, run on the JS thread inside the napi entry).

use napi::bindgen_prelude::*;
use napi::JsValue;
use std::cell::RefCell;
use std::sync::OnceLock;

/// Errors created by adt-ls-native; see docs/errors.md for the codes.
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
    let reference = unsafe { ObjectRef::<false>::from_napi_value(env.raw(), proto.raw())? };
    PROTO.with(|slot| slot.replace(Some(reference)));
    Ok(())
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

/// `Error.captureStackTrace(target)`: the current JS frames onto `target.stack`.
pub fn capture_on(env: &Env, target: Object) -> Result<()> {
    let error_ctor: Object = env.get_global()?.get_named_property_unchecked("Error")?;
    let capture: Function<Object, Unknown> = error_ctor.get_named_property("captureStackTrace")?;
    capture.call(target)?;
    Ok(())
}

/// False when `ADT_LS_NATIVE_CALLER_STACKS=0` was set at start (read once): rejections then
/// carry only the frames at settlement, saving the capture's cost (see bench/caller-stacks.mjs).
fn capture_enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED
        .get_or_init(|| std::env::var_os("ADT_LS_NATIVE_CALLER_STACKS").is_none_or(|v| v != "0"))
}

/// The caller's frames, captured at a call and formatted only if they are needed: V8's
/// `Error.captureStackTrace` records the frames cheaply and formats `stack` on first read, so
/// a promise that resolves never pays for the text (see bench/caller-stacks.mjs).
pub struct CallerStack(Option<ObjectRef<false>>);

impl CallerStack {
    /// Capture the current frames (JS thread, inside a promise-returning export).
    pub fn capture(env: &Env) -> CallerStack {
        if !capture_enabled() {
            return CallerStack(None);
        }
        let probe = Object::new(env)
            .ok()
            .filter(|probe| capture_on(env, *probe).is_ok())
            .and_then(|probe| probe.create_ref::<false>().ok());
        CallerStack(probe)
    }

    /// The captured `    at …` lines, formatted now; `None` where the engine gave none.
    pub fn frames(&self, env: &Env) -> Option<String> {
        let probe = self.0.as_ref()?.get_value(env).ok()?;
        let stack: String = probe.get_named_property::<String>("stack").ok()?;
        frames_of(&stack)
    }

    /// Drop the captured frames (JS thread).
    pub fn release(self, env: &Env) {
        if let Some(probe) = self.0 {
            let _ = probe.unref(env);
        }
    }
}

/// The frame lines of a stack text (everything after the message lines).
pub fn frames_of(stack: &str) -> Option<String> {
    let start = stack.find("\n    at ").or_else(|| stack.find("\n    at"))?;
    let frames = &stack[start + 1..];
    (!frames.trim().is_empty()).then(|| frames.to_string())
}

#[cfg(test)]
mod tests {
    use super::frames_of;

    #[test]
    fn frames_skip_the_message_lines() {
        let s = "Error: a\nb\n    at f (x.js:1:1)\n    at g (y.js:2:2)";
        assert_eq!(
            frames_of(s).as_deref(),
            Some("    at f (x.js:1:1)\n    at g (y.js:2:2)")
        );
        assert_eq!(frames_of("Error"), None);
    }
}
