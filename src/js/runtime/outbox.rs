//! Delivering engine events and progress reports to JS functions, in order, on the JS
//! thread. Engine threads post `(target, message)` to the JS thread's outbox; a weak
//! threadsafe function wakes the thread (so a listener never keeps a script alive), and the
//! queue is also drained right before any of our promises settles, so what happened during
//! an operation is seen before its `await` returns. A target is a client's event listeners or
//! one function (a call's `onProgress`, a driver's notification handler); it lives on the JS
//! thread only. A function that throws or
//! rejects is logged as a warning and never disturbs the client or the process. A message
//! posted while a peer's message is dispatched keeps that message's backlog charge until it is
//! delivered, so a flood stops being read instead of filling the queue ([`crate::bounds::backlog`]).

use super::raw_ref::RawRef;
use super::wake_queue::WakeQueue;
use super::{call, callback, json};
use crate::kernel::log;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::JsValue;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// What a target is sent.
pub enum Message {
    /// A client event: its name and payload.
    Event(&'static str, Value),
    /// A value for a single-function target (a progress report, a notification's params).
    Call(Value),
    /// The target is done: its functions are released.
    Close,
}

/// The cross-thread half of one JS thread's outbox: `post(target, message)` from any thread.
pub type Outbox = WakeQueue<Message>;

/// One registered event listener.
struct Listener {
    id: u64,
    event: &'static str,
    func: RawRef,
    once: bool,
}

enum Target {
    Listeners(Vec<Listener>),
    /// One function and what to call it in warnings (`an onProgress callback`).
    Function(RawRef, String),
}

struct Local {
    outbox: Arc<Outbox>,
    targets: HashMap<u64, Target>,
    next_id: u64,
}

thread_local! {
    static LOCAL: RefCell<Option<Local>> = const { RefCell::new(None) };
}

fn with_local<R>(env: &Env, f: impl FnOnce(&mut Local) -> R) -> Result<R> {
    LOCAL.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some(Local {
                outbox: Arc::new(Outbox::new(env, "adtLsOutbox", flush)?),
                targets: HashMap::new(),
                next_id: 1,
            });
        }
        match slot.as_mut() {
            Some(local) => Ok(f(local)),
            None => Err(Error::from_reason("adt-ls-native: no outbox")),
        }
    })
}

fn next_id(local: &mut Local) -> u64 {
    let id = local.next_id;
    local.next_id += 1;
    id
}

/// A new event-listener target: its id and the outbox to post to.
pub fn listeners_target(env: &Env) -> Result<(u64, Arc<Outbox>)> {
    with_local(env, |local| {
        let id = next_id(local);
        local.targets.insert(id, Target::Listeners(Vec::new()));
        (id, local.outbox.clone())
    })
}

/// A target calling `func` (named `label` in warnings): its id and the outbox to post to.
pub fn function_target(
    env: &Env,
    func: sys::napi_value,
    label: String,
) -> Result<(u64, Arc<Outbox>)> {
    let held = RawRef::strong(env, func)?;
    with_local(env, |local| {
        let id = next_id(local);
        local.targets.insert(id, Target::Function(held, label));
        (id, local.outbox.clone())
    })
}

/// Release a target now (JS thread; later messages to it are dropped).
pub fn close_now(env: &Env, target: u64) {
    close(env, target);
}

/// Add a listener to `target`; its id, or `None` when the target is closed.
pub fn add_listener(
    env: &Env,
    target: u64,
    event: &'static str,
    func: sys::napi_value,
    once: bool,
) -> Result<Option<u64>> {
    let held = RawRef::strong(env, func)?;
    let added = with_local(env, |local| {
        let id = next_id(local);
        match local.targets.get_mut(&target) {
            Some(Target::Listeners(list)) => {
                list.push(Listener {
                    id,
                    event,
                    func: held,
                    once,
                });
                Ok(id)
            }
            _ => Err(held),
        }
    })?;
    match added {
        Ok(id) => Ok(Some(id)),
        Err(held) => {
            held.delete(env);
            Ok(None)
        }
    }
}

/// Remove the listener `id` of `target` (no-op when gone).
pub fn remove_listener(env: &Env, target: u64, id: u64) {
    let removed = with_local(env, |local| match local.targets.get_mut(&target) {
        Some(Target::Listeners(list)) => list
            .iter()
            .position(|l| l.id == id)
            .map(|at| list.remove(at)),
        _ => None,
    });
    if let Ok(Some(l)) = removed {
        l.func.delete(env);
    }
}

/// Remove the most recently added listener of `event` that is `func` (as `===`).
pub fn remove_function(env: &Env, target: u64, event: &str, func: sys::napi_value) {
    let found = with_local(env, |local| match local.targets.get(&target) {
        Some(Target::Listeners(list)) => list
            .iter()
            .rev()
            .find(|l| l.event == event && l.func.value(env).is_some_and(|v| same(env, v, func)))
            .map(|l| l.id),
        _ => None,
    });
    if let Ok(Some(id)) = found {
        remove_listener(env, target, id);
    }
}

fn same(env: &Env, a: sys::napi_value, b: sys::napi_value) -> bool {
    let mut equal = false;
    // SAFETY: `env` is the env of the current call on the JS thread; `a` and `b` are handles of its
    // scope (a listener's value read from its reference and the function given); `equal` is a
    // local.
    let status = unsafe { sys::napi_strict_equals(env.raw(), a, b, &mut equal) };
    status == sys::Status::napi_ok && equal
}

/// Deliver everything queued (JS thread only).
pub fn flush(env: &Env) {
    let Some(outbox) = LOCAL.with(|slot| slot.borrow().as_ref().map(|l| l.outbox.clone())) else {
        return;
    };
    outbox.rearm();
    loop {
        let batch = outbox.take();
        if batch.is_empty() {
            return;
        }
        for (target, message, charge) in batch {
            deliver(env, target, message);
            drop(charge);
        }
    }
}

fn deliver(env: &Env, target: u64, message: Message) {
    match message {
        Message::Close => close(env, target),
        Message::Event(name, payload) => {
            let funcs = take_listeners(env, target, name);
            let what = format!("a '{name}' listener");
            call_each(env, &funcs, &payload, &what);
        }
        Message::Call(value) => {
            let func = LOCAL.with(|slot| match slot.borrow().as_ref()?.targets.get(&target)? {
                Target::Function(held, label) => Some((held.value(env)?, label.clone())),
                Target::Listeners(_) => None,
            });
            if let Some((func, label)) = func {
                call_each(env, &[func], &value, &label);
            }
        }
    }
}

/// The functions listening to `event` (a `once` listener is removed on the way).
fn take_listeners(env: &Env, target: u64, event: &str) -> Vec<sys::napi_value> {
    let (funcs, spent) = LOCAL.with(|slot| {
        let mut slot = slot.borrow_mut();
        let Some(Target::Listeners(list)) = slot.as_mut().and_then(|l| l.targets.get_mut(&target))
        else {
            return (Vec::new(), Vec::new());
        };
        let funcs: Vec<sys::napi_value> = list
            .iter()
            .filter(|l| l.event == event)
            .filter_map(|l| l.func.value(env))
            .collect();
        let (spent, kept): (Vec<Listener>, Vec<Listener>) = std::mem::take(list)
            .into_iter()
            .partition(|l| l.once && l.event == event);
        *list = kept;
        (funcs, spent)
    });
    for l in spent {
        l.func.delete(env);
    }
    funcs
}

/// Call each function with the payload; a throw or a rejection is logged.
fn call_each(env: &Env, funcs: &[sys::napi_value], payload: &Value, what: &str) {
    if funcs.is_empty() {
        return;
    }
    for func in funcs {
        let arg = match json::to_js(env, payload) {
            Ok(v) => v.raw(),
            Err(_) => return,
        };
        match call::call(env, call::undefined(env), *func, &[arg]) {
            Err(e) => log::warn(format!("{what} threw: {}", e.reason)),
            Ok(value) if value.is_promise().unwrap_or(false) => {
                let what = what.to_string();
                callback::follow_promise(env, value, move |outcome| {
                    if let Err(message) = outcome {
                        log::warn(format!("{what} rejected: {message}"));
                    }
                });
            }
            Ok(_) => {}
        }
    }
}

fn close(env: &Env, target: u64) {
    let removed = LOCAL.with(|slot| slot.borrow_mut().as_mut()?.targets.remove(&target));
    match removed {
        Some(Target::Listeners(list)) => list.into_iter().for_each(|l| l.func.delete(env)),
        Some(Target::Function(held, _)) => held.delete(env),
        None => {}
    }
}
