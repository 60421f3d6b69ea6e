//! The caller's frames on rejections, chosen once per process:
//!
//! - **At the await** (the default under Node): nothing is captured when a promise-returning
//!   export is called. The promise JS gets is `inner.then(undefined, raise)`; when `inner`
//!   rejects with a library error, `raise` (a native function, so it adds no frame) runs as
//!   that promise reaction and re-captures the error's stack there. V8's zero-cost async stack
//!   traces walk from a reaction to the async functions awaiting it, so `stack` reads
//!   `at async myBusinessFunction (app.mjs:6:46)`, as 0.5.0's JS errors did. A call that
//!   resolves costs one `then` and one microtask, no stack walk (a walk is 1.5-10 µs: see
//!   docs/performance.md).
//! - **At the call** (`ADT_LS_NATIVE_CALLER_STACKS=call`, and always under Bun, whose engine
//!   walks no async frames): an error object made at the call records the frames
//!   (`napi_create_error`), kept by reference and formatted only if the promise rejects.
//! - **Off** (`ADT_LS_NATIVE_CALLER_STACKS=0`): rejections carry the frames at settlement.

use super::raw_ref::RawRef;
use napi::bindgen_prelude::*;
use napi::sys;
use std::cell::OnceCell;
use std::ptr;
use std::sync::OnceLock;

/// The environment variable choosing the mode (read once, at the first module load).
pub const SWITCH: &str = "ADT_LS_NATIVE_CALLER_STACKS";

/// How rejections get the caller's frames (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    AtAwait,
    AtCall,
    Off,
}

/// The mode for a switch value and engine: `0` off, `call` at the call; otherwise at the await,
/// except on an engine without async stack traces (Bun).
pub fn mode_for(switch: Option<&str>, async_stack_traces: bool) -> Mode {
    match switch {
        Some("0") => Mode::Off,
        Some("call") => Mode::AtCall,
        _ if async_stack_traces => Mode::AtAwait,
        _ => Mode::AtCall,
    }
}

static MODE: OnceLock<Mode> = OnceLock::new();

thread_local! {
    /// `Promise.prototype.then`, `raise` and `Error.captureStackTrace` of this JS thread.
    static HOOKS: OnceCell<Hooks> = const { OnceCell::new() };
}

struct Hooks {
    then: RawRef,
    raise: RawRef,
    capture: RawRef,
}

/// Decide the mode (first load in the process) and make this JS thread's hooks (module init).
pub fn install(env: &Env, async_stack_traces: bool) -> Result<()> {
    MODE.get_or_init(|| {
        let switch = std::env::var(SWITCH).ok();
        mode_for(switch.as_deref(), async_stack_traces)
    });
    let global = env.get_global()?;
    let promise_ctor: Object = global.get_named_property_unchecked("Promise")?;
    let promise_proto: Object = promise_ctor.get_named_property("prototype")?;
    let then: Unknown = promise_proto.get_named_property("then")?;
    let error_ctor: Object = global.get_named_property_unchecked("Error")?;
    let capture: Unknown = error_ctor.get_named_property("captureStackTrace")?;
    let mut raise = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread (module init); the name is a
    // NUL-terminated static string of 5 bytes; `raise_callback` has the signature Node-API calls;
    // `raise` is a local.
    check_status!(unsafe {
        sys::napi_create_function(
            env.raw(),
            c"raise".as_ptr(),
            5,
            Some(raise_callback),
            ptr::null_mut(),
            &mut raise,
        )
    })?;
    let hooks = Hooks {
        then: RawRef::strong(env, then.raw())?,
        raise: RawRef::strong(env, raise)?,
        capture: RawRef::strong(env, capture.raw())?,
    };
    HOOKS.with(|slot| slot.set(hooks).ok());
    Ok(())
}

/// The mode in effect on this thread: at the await only where its hooks exist.
fn mode() -> Mode {
    match MODE.get().copied().unwrap_or(Mode::AtCall) {
        Mode::AtAwait if HOOKS.with(|hooks| hooks.get().is_none()) => Mode::AtCall,
        mode => mode,
    }
}

/// The promise to hand JS for `promise` (the one the library settles): in the at-the-await
/// mode `promise.then(undefined, raise)`, else `promise` itself.
pub fn awaitable(env: &Env, promise: sys::napi_value) -> sys::napi_value {
    if mode() != Mode::AtAwait {
        return promise;
    }
    let hooks = HOOKS.with(|hooks| hooks.get().map(|h| (h.then.value(env), h.raise.value(env))));
    let Some((Some(then), Some(raise))) = hooks else {
        return promise;
    };
    let args = [super::call::undefined(env), raise];
    let mut chained = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `promise`, `then` and `raise`
    // are handles of its scope (`then` and `raise` just read from their references); `args` holds 2
    // values that outlive the call; `chained` is a local.
    let status = unsafe {
        sys::napi_call_function(env.raw(), promise, then, 2, args.as_ptr(), &mut chained)
    };
    if status == sys::Status::napi_ok && !chained.is_null() {
        return chained;
    }
    clear_exception(env);
    promise
}

/// `raise(reason)`: re-capture a library error's stack in the reaction that runs it (other
/// values keep theirs), then rethrow it so the chained promise rejects with it.
// SAFETY: Node-API calls this (registered by `install` with napi_create_function) on the JS thread
// with the env and callback info of the current call; `argv` has room for the one argument asked
// for, and every handle used is of this call's scope.
unsafe extern "C" fn raise_callback(
    env: sys::napi_env,
    info: sys::napi_callback_info,
) -> sys::napi_value {
    let mut argc = 1usize;
    let mut argv = [ptr::null_mut(); 1];
    let status = sys::napi_get_cb_info(
        env,
        info,
        &mut argc,
        argv.as_mut_ptr(),
        ptr::null_mut(),
        ptr::null_mut(),
    );
    let mut reason = argv[0];
    if status != sys::Status::napi_ok || argc == 0 || reason.is_null() {
        sys::napi_get_undefined(env, &mut reason);
    }
    let env_ref = Env::from_raw(env);
    if super::error_class::is_library_error(&env_ref, reason) {
        capture_cached(&env_ref, reason);
    }
    sys::napi_throw(env, reason);
    ptr::null_mut()
}

/// `Error.captureStackTrace(target)` through this thread's hook, the exception of a failed
/// call cleared; false without the hook.
fn capture_cached(env: &Env, target: sys::napi_value) -> bool {
    let Some(capture) = HOOKS.with(|hooks| hooks.get().and_then(|h| h.capture.value(env))) else {
        return false;
    };
    let mut result = ptr::null_mut();
    let undefined = super::call::undefined(env);
    // SAFETY: `env` is the env of the current call on the JS thread; `undefined`, `capture`
    // (just read from its reference) and `target` are handles of its scope; one argument is
    // passed by reference to `target`, alive for the call; `result` is a local.
    let status =
        unsafe { sys::napi_call_function(env.raw(), undefined, capture, 1, &target, &mut result) };
    if status != sys::Status::napi_ok {
        clear_exception(env);
        return false;
    }
    true
}

fn clear_exception(env: &Env) {
    let mut pending = false;
    // SAFETY: `env` is the env of the current call on the JS thread; `pending` and `exception` are
    // locals the calls write.
    unsafe {
        if sys::napi_is_exception_pending(env.raw(), &mut pending) == sys::Status::napi_ok
            && pending
        {
            let mut exception = ptr::null_mut();
            sys::napi_get_and_clear_last_exception(env.raw(), &mut exception);
        }
    }
}

/// `Error.captureStackTrace(target)`: the current JS frames onto `target.stack` (a
/// synchronous throw, or an error made outside any caller's frames).
pub fn capture_on(env: &Env, target: Object) -> Result<()> {
    if capture_cached(env, target.raw()) {
        return Ok(());
    }
    let error_ctor: Object = env.get_global()?.get_named_property_unchecked("Error")?;
    let capture: Function<Object, Unknown> = error_ctor.get_named_property("captureStackTrace")?;
    capture.call(target)?;
    Ok(())
}

/// The caller's frames captured at a call (the at-the-call mode), formatted only if needed.
pub struct CallerStack(Option<RawRef>);

impl CallerStack {
    /// Capture the current frames in the at-the-call mode (JS thread, inside a
    /// promise-returning export); nothing in the other modes.
    pub fn capture(env: &Env) -> CallerStack {
        if mode() != Mode::AtCall {
            return CallerStack(None);
        }
        let raw = env.raw();
        let mut message = ptr::null_mut();
        let mut probe = ptr::null_mut();
        // SAFETY: plain Node-API calls on the JS thread; the probe is an `Error` whose creation
        // records the frames (formatted on the first read of `stack`).
        let made = unsafe {
            sys::napi_create_string_latin1(raw, c"".as_ptr(), 0, &mut message)
                == sys::Status::napi_ok
                && sys::napi_create_error(raw, ptr::null_mut(), message, &mut probe)
                    == sys::Status::napi_ok
        };
        CallerStack(made.then(|| RawRef::strong(env, probe).ok()).flatten())
    }

    /// The captured `    at …` lines, formatted now; `None` where none were captured.
    pub fn frames(&self, env: &Env) -> Option<String> {
        let probe = self.0.as_ref()?.value(env)?;
        // SAFETY: `probe` is the `Error` kept by the strong reference, just read on this JS
        // thread's env, so it is live in this scope; the `Object` is used only in this call.
        let probe = unsafe { Object::from_napi_value(env.raw(), probe) }.ok()?;
        let stack: String = probe.get_named_property::<String>("stack").ok()?;
        frames_of(&stack)
    }

    /// Drop the captured frames (JS thread).
    pub fn release(self, env: &Env) {
        if let Some(probe) = self.0 {
            probe.delete(env);
        }
    }
}

/// The frame lines of a stack text (everything after the message lines).
pub fn frames_of(stack: &str) -> Option<String> {
    let start = stack.find("\n    at ").or_else(|| stack.find("\n    at"))?;
    let frames = &stack[start + 1..];
    (!frames.trim().is_empty()).then(|| frames.to_string())
}
