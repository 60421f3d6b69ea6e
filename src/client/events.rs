//! The client's events (docs/events.md): what happened, as plain JSON payloads without
//! secrets, and the bus that hands them to one sink (the JS layer's). Emitting is cheap when
//! nobody listens. After dispose the bus is closed: only the final `exit` event passes, then
//! the sink is told the client is done (`None`) and dropped.

use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// The event names, in the order the docs list them.
pub(crate) const EVENT_NAMES: [&str; 4] = ["logonState", "health", "relogon", "exit"];

/// `connected` / `backendLive` as `health()` reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HealthFlags {
    pub connected: bool,
    pub backend_live: bool,
}

impl HealthFlags {
    fn to_json(self) -> Value {
        json!({ "connected": self.connected, "backendLive": self.backend_live })
    }
}

/// What triggered a re-logon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RelogonReason {
    /// A call failed because the SAP session was logged off.
    Call,
    /// The keep-alive probe found the session dead.
    KeepAlive,
    /// The user called `reconnect()`.
    Reconnect,
}

impl RelogonReason {
    fn as_str(self) -> &'static str {
        match self {
            RelogonReason::Call => "call",
            RelogonReason::KeepAlive => "keepAlive",
            RelogonReason::Reconnect => "reconnect",
        }
    }
}

/// One event of the client.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ClientEvent {
    /// adt-ls's `adtLs/destinations/logonStateChanged` notification.
    LogonState {
        destination_id: String,
        logon_state: String,
        message: Option<String>,
    },
    /// `health()` changed.
    Health {
        previous: HealthFlags,
        current: HealthFlags,
    },
    /// A re-logon started (`ok: None`) or ended.
    Relogon {
        reason: RelogonReason,
        ok: Option<bool>,
    },
    /// adt-ls exited; `expected` when `dispose()` ended it.
    Exit {
        code: Option<i32>,
        signal: Option<String>,
        expected: bool,
    },
}

impl ClientEvent {
    /// The event's name (one of [`EVENT_NAMES`]).
    pub(crate) fn name(&self) -> &'static str {
        match self {
            ClientEvent::LogonState { .. } => "logonState",
            ClientEvent::Health { .. } => "health",
            ClientEvent::Relogon { .. } => "relogon",
            ClientEvent::Exit { .. } => "exit",
        }
    }

    /// The payload handed to listeners.
    pub(crate) fn payload(&self) -> Value {
        match self {
            ClientEvent::LogonState {
                destination_id,
                logon_state,
                message,
            } => {
                let mut out = json!({ "destinationId": destination_id, "logonState": logon_state });
                if let Some(m) = message {
                    out["message"] = Value::String(crate::kernel::redact::redact(m));
                }
                out
            }
            ClientEvent::Health { previous, current } => json!({
                "previous": previous.to_json(),
                "current": current.to_json(),
            }),
            ClientEvent::Relogon { reason, ok } => {
                let status = match ok {
                    None => "started",
                    Some(true) => "succeeded",
                    Some(false) => "failed",
                };
                json!({ "status": status, "reason": reason.as_str() })
            }
            ClientEvent::Exit {
                code,
                signal,
                expected,
            } => json!({ "code": code, "signal": signal, "expected": expected }),
        }
    }

    /// The event for a `logonStateChanged` notification's params; `None` when they lack
    /// the destination or the state.
    pub(crate) fn from_logon_notification(params: Option<&Value>) -> Option<ClientEvent> {
        let p = params?;
        let text = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
        Some(ClientEvent::LogonState {
            destination_id: text("destinationId")?,
            logon_state: text("logonState")?,
            message: text("message").filter(|m| !m.is_empty()),
        })
    }
}

/// Receives events; `None` once the client is done (after the final `exit`).
pub(crate) type EventSink = Arc<dyn Fn(Option<&ClientEvent>) + Send + Sync>;

#[derive(Default)]
struct BusState {
    sink: Option<EventSink>,
    closed: bool,
    exit_sent: bool,
}

/// Hands events to the sink set by the JS layer. Clones share it.
#[derive(Clone, Default)]
pub(crate) struct EventBus {
    state: Arc<Mutex<BusState>>,
}

impl EventBus {
    /// Send every later event to `sink` (replaces an earlier one).
    pub(crate) fn set_sink(&self, sink: EventSink) {
        self.lock().sink = Some(sink);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BusState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Emit `event` unless the bus is closed (an `exit` passes once even then).
    pub(crate) fn emit(&self, event: ClientEvent) {
        let sink = {
            let mut state = self.lock();
            let is_exit = matches!(event, ClientEvent::Exit { .. });
            if is_exit {
                if state.exit_sent {
                    return;
                }
                state.exit_sent = true;
            } else if state.closed {
                return;
            }
            state.sink.clone()
        };
        if let Some(sink) = sink {
            sink(Some(&event));
        }
    }

    /// No events but the final `exit` from now on (dispose has begun).
    pub(crate) fn close(&self) {
        self.lock().closed = true;
    }

    /// Emit the final `exit` (unless one was emitted), tell the sink the client is done and
    /// drop it.
    pub(crate) fn finish(&self, exit: ClientEvent) {
        self.close();
        self.emit(exit);
        let sink = self.lock().sink.take();
        if let Some(sink) = sink {
            sink(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorder(bus: &EventBus) -> Arc<Mutex<Vec<Option<ClientEvent>>>> {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        bus.set_sink(Arc::new(move |e| s.lock().unwrap().push(e.cloned())));
        seen
    }

    fn exit(expected: bool) -> ClientEvent {
        ClientEvent::Exit {
            code: Some(0),
            signal: None,
            expected,
        }
    }

    #[test]
    fn closed_bus_passes_only_one_exit_then_ends_the_sink() {
        let bus = EventBus::default();
        let seen = recorder(&bus);
        let relogon = ClientEvent::Relogon {
            reason: RelogonReason::Call,
            ok: None,
        };
        bus.emit(relogon.clone());
        bus.close();
        bus.emit(relogon);
        bus.finish(exit(true));
        bus.finish(exit(true));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[0].as_ref().map(ClientEvent::name), Some("relogon"));
        assert_eq!(seen[1], Some(exit(true)));
        assert_eq!(seen[2], None);
    }

    #[test]
    fn an_unexpected_exit_is_the_only_exit() {
        let bus = EventBus::default();
        let seen = recorder(&bus);
        bus.emit(exit(false));
        bus.finish(exit(true));
        let seen = seen.lock().unwrap();
        assert_eq!(*seen, vec![Some(exit(false)), None]);
    }

    #[test]
    fn payloads_have_the_documented_fields() {
        let e = ClientEvent::from_logon_notification(Some(
            &json!({"destinationId": "A4H", "logonState": "connected", "message": ""}),
        ))
        .unwrap();
        assert_eq!(
            e.payload(),
            json!({"destinationId": "A4H", "logonState": "connected"})
        );
        assert_eq!(
            ClientEvent::from_logon_notification(Some(&json!({"logonState": "x"}))),
            None
        );
        let h = ClientEvent::Health {
            previous: HealthFlags {
                connected: true,
                backend_live: true,
            },
            current: HealthFlags {
                connected: true,
                backend_live: false,
            },
        };
        assert_eq!(
            h.payload(),
            json!({"previous": {"connected": true, "backendLive": true}, "current": {"connected": true, "backendLive": false}})
        );
        let r = ClientEvent::Relogon {
            reason: RelogonReason::KeepAlive,
            ok: Some(false),
        };
        assert_eq!(
            r.payload(),
            json!({"status": "failed", "reason": "keepAlive"})
        );
        let x = ClientEvent::Exit {
            code: None,
            signal: Some("SIGKILL".into()),
            expected: true,
        };
        assert_eq!(
            x.payload(),
            json!({"code": null, "signal": "SIGKILL", "expected": true})
        );
    }
}
