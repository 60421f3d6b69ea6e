//! Settling our promises in batches: one long-lived thread-safe function per JS thread
//! drains a queue of finished engine futures, instead of napi-rs's `AsyncBlock`, which
//! creates and releases a thread-safe function (and an env cleanup hook) per promise. Any
//! number of completions that arrive before the JS thread wakes up are settled in one
//! wake-up, after pending log lines, events and progress reports are delivered. The function is weak while nothing is
//! pending and holds the event loop open (like a pending `AsyncBlock` did) while something is.
//! A completion posted while a peer's response is dispatched keeps that response's backlog
//! charge until its promise settles ([`crate::bounds::backlog`]).

use super::wake_queue::WakeQueue;
use super::{logger, outbox};
use napi::bindgen_prelude::*;
use napi::sys;
use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::ptr;
use std::sync::Arc;

/// A finished future's output, typed by the waiting entry that will read it.
type Outcome = Box<dyn Any + Send>;
/// Turns an outcome into the value to resolve with, or the error to reject with (JS thread).
type Finish = Box<dyn FnOnce(&Env, Outcome) -> Result<sys::napi_value>>;

/// The cross-thread half: completions (`post(promise id, outcome)`) queued by runtime
/// threads, and the wake-up. A completion posted while the env is torn down never settles.
type Shared = WakeQueue<Outcome>;

/// The JS-thread half: promises waiting for their completion.
struct Local {
    shared: Arc<Shared>,
    next_id: u64,
    waiting: HashMap<u64, (sys::napi_deferred, Finish)>,
    holds_loop: bool,
}

thread_local! {
    static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
}

/// A promise created by [`spawn`]; converts to the JS promise.
pub struct Settling<T> {
    promise: sys::napi_value,
    _result: PhantomData<T>,
}

impl<T> Settling<T> {
    /// The same promise, typed by what it resolves with in JS.
    pub fn typed<U>(self) -> Settling<U> {
        Settling {
            promise: self.promise,
            _result: PhantomData,
        }
    }
}

impl<T> ToNapiValue for Settling<T> {
    // SAFETY: returns the promise unchanged: `deferred` made it in the current call's scope on the
    // JS thread, and the export returns it (or `coded`'s caller hands it on) in that same call.
    unsafe fn to_napi_value(_: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        Ok(val.promise)
    }
}

/// A promise and the [`Completer`] that settles it from any thread through `finish` (run on
/// the JS thread); no task per promise. Must be called on the JS thread. The promise handed
/// out is the one that gives rejections the caller's frames ([`super::caller_stack::awaitable`]).
pub fn deferred<T: Send + 'static>(
    env: &Env,
    finish: impl FnOnce(&Env, T) -> Result<sys::napi_value> + 'static,
) -> Result<(Settling<T>, Completer<T>)> {
    let mut deferred = ptr::null_mut();
    let mut promise = ptr::null_mut();
    // SAFETY: `env` is the env of the current call on the JS thread; `deferred` and `promise` are
    // locals the call writes; the deferred is resolved or rejected once, by `settle_one`, on this
    // thread.
    check(unsafe { sys::napi_create_promise(env.raw(), &mut deferred, &mut promise) })?;
    let finish: Finish = Box::new(move |env, outcome| match outcome.downcast::<T>() {
        Ok(value) => finish(env, *value),
        Err(_) => Err(Error::from_reason(
            "adt-ls-native: the operation ended without a result",
        )),
    });
    let (id, shared) = register(env, deferred, finish)?;
    let promise = Settling {
        promise: super::caller_stack::awaitable(env, promise),
        _result: PhantomData,
    };
    let completer = Completer {
        shared: Some(shared),
        id,
        _result: PhantomData,
    };
    Ok((promise, completer))
}

/// Settles one promise from any thread. Dropped without [`Completer::complete`], it rejects
/// the promise (so a lost completion never leaves it pending, holding the event loop open).
pub struct Completer<T> {
    shared: Option<Arc<Shared>>,
    id: u64,
    _result: PhantomData<fn(T)>,
}

/// What a dropped [`Completer`] posts: not a `T`, so the promise rejects.
struct Abandoned;

impl<T> Completer<T> {
    /// The promise's id, for [`settle_now`].
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// Settle the waiting promise `id` with `value` now, on the JS thread (an abort listener);
/// its completer's later outcome is then ignored. False when it had settled already.
pub fn settle_now<T: Send + 'static>(env: &Env, id: u64, value: T) -> bool {
    let entry = LOCAL.with(|slot| slot.borrow_mut().as_mut()?.waiting.remove(&id));
    let Some((deferred, finish)) = entry else {
        return false;
    };
    settle_one(env, deferred, finish, Box::new(value));
    release_loop_if_idle(env);
    true
}

impl<T: Send + 'static> Completer<T> {
    /// Queue the outcome; the promise settles at the JS thread's next wake-up.
    pub fn complete(mut self, value: T) {
        if let Some(shared) = self.shared.take() {
            shared.post(self.id, Box::new(value));
        }
    }
}

impl<T> Drop for Completer<T> {
    fn drop(&mut self) {
        if let Some(shared) = self.shared.take() {
            shared.post(self.id, Box::new(Abandoned));
        }
    }
}

/// Record a waiting promise and hold the event loop open while any is waiting.
fn register(env: &Env, deferred: sys::napi_deferred, finish: Finish) -> Result<(u64, Arc<Shared>)> {
    LOCAL.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some(Local {
                shared: Arc::new(Shared::new(env, "adtLsSettle", drain)?),
                next_id: 0,
                waiting: HashMap::new(),
                holds_loop: false,
            });
        }
        let Some(local) = slot.as_mut() else {
            return Err(Error::from_reason("adt-ls-native: no settle queue"));
        };
        let id = local.next_id;
        local.next_id += 1;
        local.waiting.insert(id, (deferred, finish));
        if !local.holds_loop {
            // SAFETY: `env` is the env of the current call on the JS thread and the pump is this
            // thread's threadsafe function, alive in `Local` (so `raw()` is a valid handle).
            check(unsafe {
                sys::napi_ref_threadsafe_function(env.raw(), local.shared.pump().raw())
            })?;
            local.holds_loop = true;
        }
        Ok((id, local.shared.clone()))
    })
}

/// Keep completions posted from now on from waking the pump: the caller (on the JS thread)
/// settles them itself with [`drain`] before it returns.
#[cfg(unix)]
pub fn hold_wakeups() {
    LOCAL.with(|slot| {
        if let Some(local) = slot.borrow().as_ref() {
            local.shared.hold();
        }
    });
}

/// Let completions wake the pump again and wake it for any already queued (when the caller
/// of [`hold_wakeups`] cannot settle them itself).
#[cfg(unix)]
pub fn wake_pump() {
    let Some(shared) = LOCAL.with(|slot| slot.borrow().as_ref().map(|l| l.shared.clone())) else {
        return;
    };
    shared.wake_if_queued();
}

/// Deliver pending log lines, events and progress reports, then settle every queued
/// completion (JS thread: the pump's callback, or in place after [`hold_wakeups`]).
pub fn drain(env: &Env) {
    let Some(shared) = LOCAL.with(|slot| slot.borrow().as_ref().map(|l| l.shared.clone())) else {
        logger::flush(env);
        outbox::flush(env);
        return;
    };
    shared.rearm();
    let batch = shared.take();
    // Everything posted before the batch was taken is delivered before it settles.
    logger::flush(env);
    outbox::flush(env);
    if batch.is_empty() {
        return;
    }
    for (id, outcome, charge) in batch {
        let entry = LOCAL.with(|slot| slot.borrow_mut().as_mut()?.waiting.remove(&id));
        if let Some((deferred, finish)) = entry {
            settle_one(env, deferred, finish, outcome);
        }
        drop(charge);
    }
    release_loop_if_idle(env);
}

/// Let the event loop exit once no promise is waiting.
fn release_loop_if_idle(env: &Env) {
    LOCAL.with(|slot| {
        let mut slot = slot.borrow_mut();
        if let Some(local) = slot.as_mut() {
            if local.waiting.is_empty() && local.holds_loop {
                // SAFETY: on the JS thread with its env (`drain`'s caller); the pump is this
                // thread's threadsafe function, alive in `Local`.
                unsafe {
                    sys::napi_unref_threadsafe_function(env.raw(), local.shared.pump().raw())
                };
                local.holds_loop = false;
            }
        }
    });
}

fn settle_one(env: &Env, deferred: sys::napi_deferred, finish: Finish, outcome: Outcome) {
    let mut scope = ptr::null_mut();
    // SAFETY: this runs on the JS thread in a settlement (`drain`, from the pump's callback or a
    // poll callback), with `env` the thread's env; the scope opened here is closed below, after the
    // promise is settled; `scope` stays null if it failed.
    unsafe { sys::napi_open_handle_scope(env.raw(), &mut scope) };
    match finish(env, outcome) {
        // SAFETY: `deferred` was made by `deferred` on this env and is settled only here, once (its
        // entry was removed from `waiting`); `value` was made by `finish` in the open scope.
        Ok(value) => unsafe {
            sys::napi_resolve_deferred(env.raw(), deferred, value);
        },
        Err(error) => {
            // SAFETY: `env` is the live env of this settlement on the JS thread; the error value
            // made is a handle of the open scope.
            let value = unsafe { JsError::from(error).into_value(env.raw()) };
            // SAFETY: `deferred` was made on this env and is settled only here, once (its entry was
            // removed from `waiting`); `value` was just made.
            unsafe { sys::napi_reject_deferred(env.raw(), deferred, value) };
        }
    }
    if !scope.is_null() {
        // SAFETY: `scope` was opened above on this env and is the innermost open scope; nothing
        // made in it is used afterwards.
        unsafe { sys::napi_close_handle_scope(env.raw(), scope) };
    }
}

pub(crate) fn check(status: sys::napi_status) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(
            Status::from(status),
            "napi call failed".to_string(),
        ))
    }
}
