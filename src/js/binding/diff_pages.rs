//! `transport.diffPages(number, opts)`: an async iterator over `transport.getDiff` pages, made
//! of plain functions (`next`, `return`, `[Symbol.asyncIterator]`). The paging itself is the
//! engine's [`DiffPaging`]; each page is one cancellable client call ([`cancel::run`]), so
//! `signal` and `timeoutMs` apply to the page in flight. Bad arguments reject the first
//! `next()`; nothing throws synchronously.

use crate::client::{Client, DiffPaging};
use crate::js::runtime::cancel::{self, HeldCallOptions};
use crate::js::runtime::checked;
use crate::js::runtime::errors::{coded, js_error};
use crate::js::runtime::properties;
use crate::js::runtime::settle::Settling;
use crate::js::runtime::values::{Json, Raw};
use crate::kernel::error::{codes, Error as EngineError};
use napi::bindgen_prelude::*;
use napi::{sys, JsValue};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One iteration's state (JS thread).
struct Iteration {
    paging: DiffPaging,
    opts: Option<HeldCallOptions>,
    /// An argument error, reported by the first `next()`.
    error: Option<EngineError>,
    /// A page is being fetched (cleared by the engine side when it ends, however).
    busy: Arc<AtomicBool>,
    /// A page failed or was aborted: the iteration is over.
    broken: Arc<AtomicBool>,
}

impl Iteration {
    fn finish(&mut self, env: &Env) {
        self.paging.stop();
        if let Some(mut opts) = self.opts.take() {
            opts.release(env);
        }
    }
}

/// Clears `busy` when the page's engine future ends or is dropped; marks the iteration
/// broken unless the page arrived.
struct PageGuard {
    busy: Arc<AtomicBool>,
    broken: Arc<AtomicBool>,
    ok: bool,
}

impl Drop for PageGuard {
    fn drop(&mut self) {
        if !self.ok {
            self.broken.store(true, Ordering::Release);
        }
        self.busy.store(false, Ordering::Release);
    }
}

/// The `diffPages` function of the client's `transport` namespace.
pub fn function(env: &Env, client: Client) -> Result<Function<'_, Unknown<'_>, Raw>> {
    env.create_function_from_closure("diffPages", move |ctx| {
        let number = ctx.get::<Unknown>(0).ok();
        let opts = (ctx.length() > 1)
            .then(|| ctx.get::<Unknown>(1).ok())
            .flatten();
        let it = start(ctx.env, number, opts);
        iterator(ctx.env, client.clone(), it).map(|o| Raw(o.raw()))
    })
}

/// The iteration for the caller's arguments (an argument error is kept for `next()`).
fn start(env: &Env, number: Option<Unknown>, opts: Option<Unknown>) -> Iteration {
    let mut it = Iteration {
        paging: DiffPaging::new(Value::Null, None),
        opts: None,
        error: None,
        busy: Arc::new(AtomicBool::new(false)),
        broken: Arc::new(AtomicBool::new(false)),
    };
    let read = || -> std::result::Result<(DiffPaging, HeldCallOptions), EngineError> {
        let number = checked::opt_json(env, number, "transportNumber")?.unwrap_or(Value::Null);
        let (call, plain) = match checked::opt_object(env, opts, "opts")? {
            Some(obj) => {
                let call = cancel::read(env, &obj, "opts", true)?;
                let mut plain = checked::opt_json(env, Some(obj.to_unknown()), "opts")?;
                if let Some(Value::Object(map)) = plain.as_mut() {
                    map.remove("signal");
                    map.remove("timeoutMs");
                }
                (call, plain)
            }
            None => (cancel::CallOptions::default(), None),
        };
        let held =
            HeldCallOptions::hold(env, call).map_err(|e| EngineError::new(e.reason.clone()))?;
        Ok((DiffPaging::new(number, plain), held))
    };
    match read() {
        Ok((paging, held)) => {
            it.paging = paging;
            it.opts = Some(held);
        }
        Err(e) => it.error = Some(e),
    }
    it
}

fn iterator(env: &Env, client: Client, it: Iteration) -> Result<Object<'_>> {
    let state = Rc::new(RefCell::new(it));
    let mut obj = Object::new(env)?;
    let for_next = state.clone();
    let next = env.create_function_from_closure::<(), Settling<Json>, _>("next", move |ctx| {
        next_page(ctx.env, &client, &for_next)
    })?;
    obj.set_named_property("next", next)?;
    let ret = env.create_function_from_closure::<(), Settling<Json>, _>("return", move |ctx| {
        state.borrow_mut().finish(ctx.env);
        done(ctx.env)
    })?;
    obj.set_named_property("return", ret)?;
    let this_fn = env
        .create_function_from_closure::<(), Unknown, _>("[Symbol.asyncIterator]", |ctx| {
            ctx.this::<Unknown>()
        })?;
    define_async_iterator(env, &obj, this_fn.raw())?;
    Ok(obj)
}

fn next_page(env: &Env, client: &Client, state: &Rc<RefCell<Iteration>>) -> Result<Settling<Json>> {
    let mut it = state.borrow_mut();
    if let Some(e) = it.error.take() {
        it.finish(env);
        return coded(env, async move { Err::<Value, _>(e) }, |_, v| {
            Ok(Json(Some(v)))
        });
    }
    let opts = it.opts.as_ref().map(|o| o.options(env)).unwrap_or_default();
    if opts.is_aborted(env) && !it.paging.is_done() {
        // Aborted (the page in flight may still be being dropped): the AbortError again,
        // nothing sent.
        drop(it);
        let nothing = || async { Ok::<Value, EngineError>(Value::Null) };
        return cancel::run(env, opts, "transport.diffPages", nothing, |_, v| {
            Ok(Json(Some(v)))
        });
    }
    if it.busy.load(Ordering::Acquire) {
        let e = EngineError::coded(
            codes::INVALID_ARG,
            "transport.diffPages: next() was called before the previous page settled",
        );
        return coded(env, async move { Err::<Value, _>(e) }, |_, v| {
            Ok(Json(Some(v)))
        });
    }
    if it.broken.load(Ordering::Acquire) {
        it.finish(env);
    }
    let Some(args) = it.paging.next_args() else {
        it.finish(env);
        drop(it);
        return done(env);
    };
    it.busy.store(true, Ordering::Release);
    let mut guard = PageGuard {
        busy: it.busy.clone(),
        broken: it.broken.clone(),
        ok: false,
    };
    drop(it);
    let page = client.clone();
    let start = move || {
        let fut = page.call("transport.getDiff", args);
        async move {
            let out = fut.await;
            guard.ok = out.is_ok();
            drop(guard);
            out
        }
    };
    let state = state.clone();
    cancel::run(env, opts, "transport.diffPages", start, move |env, page| {
        let page = page.unwrap_or(Value::Null);
        let mut it = state.borrow_mut();
        if let Err(e) = it.paging.advance(&page) {
            it.finish(env);
            return Err(js_error(env, &e));
        }
        Ok(Json(Some(
            serde_json::json!({ "value": page, "done": false }),
        )))
    })
}

/// A promise of `{ value: undefined, done: true }`.
fn done(env: &Env) -> Result<Settling<Json>> {
    coded(env, async { Ok::<(), EngineError>(()) }, |_, ()| {
        Ok(Json(Some(serde_json::json!({ "done": true }))))
    })
}

/// `obj[Symbol.asyncIterator] = f` (non-enumerable).
fn define_async_iterator(env: &Env, obj: &Object, f: sys::napi_value) -> Result<()> {
    let key = properties::well_known_symbol(env, "asyncIterator")?;
    properties::define_hidden(env, obj, &key, f)
        .map_err(|_| Error::from_reason("could not define Symbol.asyncIterator"))
}
