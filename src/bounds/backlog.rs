//! Backpressure on what a peer's messages leave waiting: every message a reader takes from a
//! peer is charged (one item, its size in bytes) to that reader's [`Backlog`] until what it
//! produced is done with: delivered on the JS thread (an event, a notification handler's
//! call, a progress report, a settled promise) or, for a server request, answered and queued
//! for the writer. The reader stops reading while the backlog is over its [`Limits`] and
//! resumes once it is back under half of them, so a peer that floods meets a full socket
//! (the kernel buffer, then its own writes block) instead of growing our memory
//! (docs/security.md, "Hostile peers: queues").
//!
//! The charge of the message being dispatched is ambient on the dispatching thread
//! ([`dispatching`]): the queue that keeps what the message produced takes it ([`take`]) and
//! drops it once that is delivered; a charge nobody took is released when the dispatch ends.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// How much a reader lets wait before it stops reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Messages not yet done with.
    pub items: usize,
    /// Their size on the wire, in bytes.
    pub bytes: usize,
}

/// The limits of every LSP connection and MCP stream: 4096 messages or 4 MiB. A single
/// message larger than that is still read (and reading then pauses until it is delivered).
pub(crate) const DEFAULT_LIMITS: Limits = Limits {
    items: 4096,
    bytes: 4 * 1024 * 1024,
};

type Wake = Box<dyn FnOnce() + Send>;

/// What one reader's messages leave waiting.
pub(crate) struct Backlog {
    items: AtomicUsize,
    bytes: AtomicUsize,
    limits: Limits,
    /// Set while a reader waits for room (so releases look for it only then).
    waiting: AtomicBool,
    room: Notify,
    wakers: Mutex<Vec<Wake>>,
}

impl Backlog {
    pub(crate) fn new(limits: Limits) -> Arc<Backlog> {
        Arc::new(Backlog {
            items: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            limits,
            waiting: AtomicBool::new(false),
            room: Notify::new(),
            wakers: Mutex::new(Vec::new()),
        })
    }

    /// Charge one message of `bytes` bytes; released when the charge is dropped.
    pub(crate) fn charge(self: &Arc<Self>, bytes: usize) -> Charge {
        self.items.fetch_add(1, Ordering::SeqCst);
        self.bytes.fetch_add(bytes, Ordering::SeqCst);
        Charge {
            backlog: self.clone(),
            bytes,
        }
    }

    /// True while the backlog is under both limits: the reader may read.
    pub(crate) fn has_room(&self) -> bool {
        self.items.load(Ordering::SeqCst) < self.limits.items
            && self.bytes.load(Ordering::SeqCst) < self.limits.bytes
    }

    /// Messages and bytes waiting now.
    pub(crate) fn load(&self) -> (usize, usize) {
        (
            self.items.load(Ordering::SeqCst),
            self.bytes.load(Ordering::SeqCst),
        )
    }

    fn under_half(&self) -> bool {
        self.items.load(Ordering::SeqCst) <= self.limits.items / 2
            && self.bytes.load(Ordering::SeqCst) <= self.limits.bytes / 2
    }

    /// Resolves once there is room (at once when there is).
    pub(crate) async fn room(&self) {
        loop {
            if self.has_room() {
                return;
            }
            let notified = self.room.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            self.waiting.store(true, Ordering::SeqCst);
            if self.has_room() {
                return;
            }
            notified.await;
        }
    }

    #[cfg_attr(not(unix), allow(dead_code))] // only the JS-thread reader (Unix) feeds a connection
    /// Call `wake` once there is room (now, on this thread, when there is).
    pub(crate) fn when_room(&self, wake: Box<dyn FnOnce() + Send>) {
        lock(&self.wakers).push(wake);
        self.waiting.store(true, Ordering::SeqCst);
        if self.has_room() {
            self.wake_all();
        }
    }

    fn release(&self, bytes: usize) {
        self.items.fetch_sub(1, Ordering::SeqCst);
        self.bytes.fetch_sub(bytes, Ordering::SeqCst);
        if self.waiting.load(Ordering::SeqCst) && self.under_half() {
            self.wake_all();
        }
    }

    fn wake_all(&self) {
        if !self.waiting.swap(false, Ordering::SeqCst) {
            return;
        }
        self.room.notify_waiters();
        let wakers = std::mem::take(&mut *lock(&self.wakers));
        for wake in wakers {
            wake();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means a panic elsewhere; the list itself stays consistent.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One message's share of a [`Backlog`], released when dropped.
pub(crate) struct Charge {
    backlog: Arc<Backlog>,
    bytes: usize,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.backlog.release(self.bytes);
    }
}

thread_local! {
    static CURRENT: Cell<Option<Charge>> = const { Cell::new(None) };
}

/// Run `dispatch` with `charge` as the ambient charge of this thread; released at the end
/// unless something [`take`]s it.
pub(crate) fn dispatching<R>(charge: Charge, dispatch: impl FnOnce() -> R) -> R {
    let outer = CURRENT.with(|slot| slot.replace(Some(charge)));
    let out = dispatch();
    let unclaimed = CURRENT.with(|slot| slot.replace(outer));
    drop(unclaimed);
    out
}

/// The ambient charge, for a queue that keeps what the message being dispatched produced
/// (the first taker gets it; `None` outside a dispatch).
pub(crate) fn take() -> Option<Charge> {
    CURRENT.with(Cell::take)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    const SMALL: Limits = Limits {
        items: 4,
        bytes: 100,
    };

    #[test]
    fn full_by_count_or_bytes_and_released_by_dropping() {
        let backlog = Backlog::new(SMALL);
        let charges: Vec<Charge> = (0..3).map(|_| backlog.charge(10)).collect();
        assert!(backlog.has_room());
        let fourth = backlog.charge(1);
        assert!(!backlog.has_room(), "4 items");
        drop(fourth);
        assert!(backlog.has_room());
        let big = backlog.charge(70);
        assert!(!backlog.has_room(), "100 bytes");
        drop(big);
        drop(charges);
        assert_eq!(backlog.load(), (0, 0));
    }

    #[test]
    fn a_waker_runs_once_the_backlog_is_under_half() {
        let backlog = Backlog::new(SMALL);
        let mut charges: Vec<Charge> = (0..4).map(|_| backlog.charge(1)).collect();
        let woken = Arc::new(AtomicUsize::new(0));
        let w = woken.clone();
        backlog.when_room(Box::new(move || {
            w.fetch_add(1, Ordering::SeqCst);
        }));
        assert_eq!(woken.load(Ordering::SeqCst), 0);
        charges.pop();
        assert_eq!(
            woken.load(Ordering::SeqCst),
            0,
            "3 of 4: room, but not under half"
        );
        charges.pop();
        assert_eq!(woken.load(Ordering::SeqCst), 1);
        charges.clear();
        assert_eq!(woken.load(Ordering::SeqCst), 1, "once");
        let w = woken.clone();
        backlog.when_room(Box::new(move || {
            w.fetch_add(1, Ordering::SeqCst);
        }));
        assert_eq!(woken.load(Ordering::SeqCst), 2, "room already: at once");
    }

    #[tokio::test]
    async fn a_reader_waiting_for_room_resumes_when_charges_are_released_on_another_thread() {
        let backlog = Backlog::new(SMALL);
        let charges: Vec<Charge> = (0..4).map(|_| backlog.charge(1)).collect();
        let waiter = {
            let backlog = backlog.clone();
            tokio::spawn(async move { backlog.room().await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiter.is_finished());
        std::thread::spawn(move || drop(charges)).join().unwrap();
        tokio::time::timeout(Duration::from_secs(10), waiter)
            .await
            .expect("resumed")
            .unwrap();
    }

    #[test]
    fn the_ambient_charge_goes_to_the_first_taker_or_is_released_after_the_dispatch() {
        let backlog = Backlog::new(SMALL);
        let kept = dispatching(backlog.charge(5), || {
            let first = take();
            assert!(take().is_none(), "one taker");
            first
        });
        assert!(kept.is_some());
        assert_eq!(backlog.load(), (1, 5), "held by the taker");
        drop(kept);
        dispatching(backlog.charge(5), || {});
        assert_eq!(backlog.load(), (0, 0), "unclaimed: released");
        assert!(take().is_none(), "nothing outside a dispatch");
        let nested = dispatching(backlog.charge(1), || {
            dispatching(backlog.charge(2), || {});
            take()
        });
        assert!(
            nested.is_some(),
            "the outer charge survives a nested dispatch"
        );
        drop(nested);
        assert_eq!(backlog.load(), (0, 0));
    }
}
