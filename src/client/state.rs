//! What the client knows about itself: connected, backend live, disposed, the last user
//! activity (for the keep-alive): the flags `health()` reports. A change of
//! `connected` / `backendLive` (as `health()` reports them) is emitted as a `health` event.

use super::events::{ClientEvent, EventBus, HealthFlags};
use std::sync::Mutex;
use std::time::Instant;

pub(crate) const DISPOSED: &str = "AdtLsClient is disposed.";
pub(crate) const NO_DESTINATION: &str = "No ABAP destination is connected.";

#[derive(Debug)]
struct Flags {
    connected: bool,
    backend_live: bool,
    disposed: bool,
    last_activity: Instant,
}

pub(crate) struct State {
    flags: Mutex<Flags>,
    events: EventBus,
}

impl Flags {
    /// `connected` and `backendLive` as `health()` reports them.
    fn health(&self) -> HealthFlags {
        HealthFlags {
            connected: self.connected,
            backend_live: self.connected && self.backend_live,
        }
    }
}

impl State {
    pub(crate) fn new(connected: bool, events: EventBus) -> Self {
        State {
            events,
            flags: Mutex::new(Flags {
                connected,
                backend_live: false,
                disposed: false,
                last_activity: Instant::now(),
            }),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut Flags) -> R) -> R {
        let mut flags = self.flags.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut flags)
    }

    pub(crate) fn is_disposed(&self) -> bool {
        self.with(|f| f.disposed)
    }

    /// Record a user call; false once disposed.
    pub(crate) fn touch(&self) -> bool {
        self.with(|f| {
            if !f.disposed {
                f.last_activity = Instant::now();
            }
            !f.disposed
        })
    }

    pub(crate) fn idle_for(&self) -> std::time::Duration {
        self.with(|f| f.last_activity.elapsed())
    }

    pub(crate) fn connected(&self) -> bool {
        self.with(|f| f.connected)
    }

    pub(crate) fn set_connected(&self, v: bool) {
        self.change(|f| f.connected = v);
    }

    pub(crate) fn backend_live(&self) -> bool {
        self.with(|f| f.backend_live)
    }

    pub(crate) fn set_backend_live(&self, v: bool) {
        self.change(|f| f.backend_live = v);
    }

    /// Apply `f`; emit a `health` event when the reported flags changed.
    fn change(&self, f: impl FnOnce(&mut Flags)) {
        let (previous, current) = self.with(|flags| {
            let previous = flags.health();
            f(flags);
            (previous, flags.health())
        });
        if previous != current {
            self.events.emit(ClientEvent::Health { previous, current });
        }
    }

    /// Mark disposed (and no longer connected or live); false if it already was.
    pub(crate) fn mark_disposed(&self) -> bool {
        self.with(|f| {
            let first = !f.disposed;
            f.disposed = true;
            f.connected = false;
            f.backend_live = false;
            first
        })
    }
}
