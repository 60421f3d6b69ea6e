//! Calling user JS functions from Rust threads, safely. A weak threadsafe function runs the
//! call on the JS thread; there the user function is invoked with raw N-API so that a
//! synchronous throw is caught (never an uncaught exception), a returned promise is followed
//! with native `then` callbacks, and the outcome is serialised with `JSON.stringify` (so
//! `undefined` becomes `null` and a circular or BigInt value becomes an error, never a
//! crash). The Rust side awaits a oneshot; if the function never settles, the caller's own
//! timeout or dispose ends the wait. The reply slot is held by the waiting side too, so a
//! never-settling promise that V8 or JavaScriptCore collects (with its `then` callbacks) does
//! not turn into an early error; a call the JS thread never ran (the callback released
//! first) is answered with an error at once. Being weak, a held callback never keeps a
//! script alive.

use super::{call, json};
use napi::bindgen_prelude::*;
use napi::sys;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::JsValue;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// Builds the call's arguments on the JS thread.
pub type ArgsBuilder = Box<dyn FnOnce(&Env) -> Result<Vec<sys::napi_value>> + Send>;

/// What a call produced: the JSON of the (awaited) return value, or the error message.
pub type CallOutcome = std::result::Result<Option<Value>, String>;

/// Where the outcome goes: taken by whoever answers first.
type ReplySlot = Arc<Mutex<Option<oneshot::Sender<CallOutcome>>>>;

/// One queued call. Dropped without having run (the thread-safe function released or
/// aborted first), it answers that the callback is gone.
struct Job {
    args: Option<ArgsBuilder>,
    reply: ReplySlot,
}

impl Drop for Job {
    fn drop(&mut self) {
        if self.args.is_some() {
            answer(
                &self.reply,
                Err("the JS callback was released before it answered".to_string()),
            );
        }
    }
}

/// Send `outcome` unless an answer went already.
fn answer(slot: &ReplySlot, outcome: CallOutcome) {
    if let Some(tx) = slot.lock().ok().and_then(|mut r| r.take()) {
        let _ = tx.send(outcome);
    }
}

type Tsfn = ThreadsafeFunction<Job, (), (), Status, false, true>;

/// A user function callable from any thread.
pub struct JsCallback {
    tsfn: Tsfn,
}

impl JsCallback {
    /// Wrap `func` (must be called on the JS thread).
    pub fn new(env: &Env, func: Function<Unknown, Unknown>) -> Result<Arc<JsCallback>> {
        // A lifetime-free reference: the call itself goes through raw N-API below.
        // SAFETY: `env` is the env of the current call on the JS thread and `func` a function of
        // its scope; the `FunctionRef` made holds a strong reference to it, moved into the
        // threadsafe function's callback, which runs and is dropped on this JS thread (napi-rs
        // routes a drop elsewhere back to it).
        let target: FunctionRef<(), ()> =
            unsafe { FunctionRef::from_napi_value(env.raw(), func.raw())? };
        let noop = env.create_function_from_closure::<(), (), _>("adtLsCallback", |_| Ok(()))?;
        let tsfn: Tsfn = noop
            .build_threadsafe_function::<Job>()
            .weak::<true>()
            .callee_handled::<false>()
            .build_callback(move |ctx| {
                let env = ctx.env;
                let job = ctx.value;
                match target.borrow_back(&env) {
                    Ok(f) => run(&env, f.raw(), job),
                    Err(e) => answer(&job.reply, Err(e.reason.clone())),
                }
                Ok(())
            })?;
        Ok(Arc::new(JsCallback { tsfn }))
    }

    /// Call with arguments built on the JS thread.
    pub async fn call(&self, args: ArgsBuilder) -> CallOutcome {
        let (tx, rx) = oneshot::channel();
        let reply: ReplySlot = Arc::new(Mutex::new(Some(tx)));
        let job = Job {
            args: Some(args),
            reply: reply.clone(),
        };
        let status = self.tsfn.call(job, ThreadsafeFunctionCallMode::NonBlocking);
        if status != Status::Ok {
            return Err(format!("the JS callback is unavailable ({status})"));
        }
        // `reply` stays alive here until the answer: only an answer ends this wait (or the
        // caller's timeout / dispose, which drop this future).
        let outcome = rx.await;
        drop(reply);
        outcome
            .unwrap_or_else(|_| Err("the JS callback was released before it answered".to_string()))
    }

    /// Call with JSON arguments (`None` is passed as `undefined`).
    pub async fn call_json(&self, args: Vec<Option<Value>>) -> CallOutcome {
        self.call(Box::new(move |env: &Env| {
            args.iter()
                .map(|a| match a {
                    Some(v) => json::to_js(env, v).map(|u| u.raw()),
                    None => Ok(call::undefined(env)),
                })
                .collect()
        }))
        .await
    }
}

fn run(env: &Env, func: sys::napi_value, mut job: Job) {
    let Some(args) = job.args.take() else {
        return;
    };
    let reply = job.reply.clone();
    let send = move |outcome: CallOutcome| answer(&reply, outcome);
    let argv = match args(env) {
        Ok(a) => a,
        Err(e) => return send(Err(e.reason.clone())),
    };
    let value = match call::call(env, call::undefined(env), func, &argv) {
        Ok(v) => v,
        Err(e) => return send(Err(e.reason.clone())),
    };
    if value.is_promise().unwrap_or(false) {
        follow_promise(env, value, send);
    } else {
        send(serialise(env, value));
    }
}

/// Attach native `then` callbacks to a promise returned by the user.
pub(crate) fn follow_promise<F>(env: &Env, promise: Unknown, send: F)
where
    F: Fn(CallOutcome) + Clone + 'static,
{
    let attached = (|| -> Result<()> {
        let promise_obj = promise.coerce_to_object()?;
        let then: Function<FnArgs<(Unknown, Unknown)>, Unknown> =
            promise_obj.get_named_property("then")?;
        let on_ok = {
            let send = send.clone();
            env.create_function_from_closure::<Unknown, (), _>("onFulfilled", move |ctx| {
                let env = Env::from_raw(ctx.env.raw());
                let value = ctx.get::<Unknown>(0)?;
                send(serialise(&env, value));
                Ok(())
            })?
        };
        let on_err = {
            let send = send.clone();
            env.create_function_from_closure::<Unknown, (), _>("onRejected", move |ctx| {
                let env = Env::from_raw(ctx.env.raw());
                let reason = ctx.get::<Unknown>(0)?;
                send(Err(call::error_message(&env, reason)));
                Ok(())
            })?
        };
        then.apply(
            promise_obj,
            FnArgs::from((on_ok.to_unknown(), on_err.to_unknown())),
        )?;
        Ok(())
    })();
    if let Err(e) = attached {
        send(Err(format!("could not await the promise: {}", e.reason)));
    }
}

fn serialise(env: &Env, value: Unknown) -> CallOutcome {
    json::from_js(env, value)
        .map_err(|e| format!("the callback's result cannot be sent as JSON: {}", e.reason))
}
