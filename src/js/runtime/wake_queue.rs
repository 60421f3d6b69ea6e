//! A queue from any thread to one JS thread with at most one wake-up on its way. `post`
//! appends and, unless a wake-up is already scheduled, calls a weak threadsafe function whose
//! callback drains the queue on the JS thread; the drain re-arms the wake-up, then takes what
//! is queued in batches. Each entry keeps the backlog charge of the peer message behind it
//! until the JS thread is done with it ([`crate::bounds::backlog`]). The outbox and the
//! settlement queue are one each.

use crate::bounds::backlog::{self, Charge};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The wake-up: weak (it never keeps the event loop alive unless referenced), no arguments.
pub type Pump = ThreadsafeFunction<(), (), (), Status, false, true>;

/// A queued item: its id, the item, the backlog charge of the message behind it.
pub type Entry<T> = (u64, T, Option<Charge>);

pub struct WakeQueue<T> {
    queue: Mutex<Vec<Entry<T>>>,
    scheduled: AtomicBool,
    pump: Pump,
}

impl<T> WakeQueue<T> {
    /// A queue whose wake-up runs `drain` on the JS thread; `name` names the JS function
    /// behind the pump (JS thread only).
    pub fn new(env: &Env, name: &str, drain: fn(&Env)) -> Result<Self> {
        let noop = env.create_function_from_closure::<(), (), _>(name, |_| Ok(()))?;
        let pump = noop
            .build_threadsafe_function::<()>()
            .weak::<true>()
            .callee_handled::<false>()
            .build_callback(move |ctx| {
                drain(&ctx.env);
                Ok(())
            })?;
        Ok(WakeQueue {
            queue: Mutex::new(Vec::new()),
            scheduled: AtomicBool::new(false),
            pump,
        })
    }

    /// Queue `item` under `id` with the current backlog charge; wake the JS thread unless a
    /// wake-up is already on its way.
    pub fn post(&self, id: u64, item: T) {
        let entry = (id, item, backlog::take());
        self.lock().push(entry);
        if !self.scheduled.swap(true, Ordering::AcqRel) {
            self.wake();
        }
    }

    /// Let the next post wake the JS thread again; the drain calls it before it takes.
    pub fn rearm(&self) {
        self.scheduled.store(false, Ordering::Release);
    }

    /// Keep posts from waking the JS thread until [`WakeQueue::rearm`]: the caller, on the
    /// JS thread, drains in place.
    #[cfg(unix)]
    pub fn hold(&self) {
        self.scheduled.store(true, Ordering::Release);
    }

    /// Everything queued so far, in order (JS thread).
    pub fn take(&self) -> Vec<Entry<T>> {
        std::mem::take(&mut *self.lock())
    }

    /// Re-arm, and wake the JS thread for what is already queued.
    #[cfg(unix)]
    pub fn wake_if_queued(&self) {
        self.rearm();
        let queued = !self.lock().is_empty();
        if queued && !self.scheduled.swap(true, Ordering::AcqRel) {
            self.wake();
        }
    }

    /// The pump, to reference it while something must keep the event loop open.
    pub fn pump(&self) -> &Pump {
        &self.pump
    }

    fn wake(&self) {
        // Fails only while the env is being torn down; nothing is waited for then.
        let _ = self.pump.call((), ThreadsafeFunctionCallMode::NonBlocking);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry<T>>> {
        self.queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
