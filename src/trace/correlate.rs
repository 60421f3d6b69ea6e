//! Pairs responses with their requests inside one trace, so a response line names the method
//! it answers and the redaction rules know what a response carries (the answer to adt-ls's
//! `requestLogonInput`, the token in `startMCPServer`'s result). Bounded: at most
//! [`MAX_OPEN`] unanswered requests are remembered (requests that never got an answer, after a
//! timeout or a dispose, would otherwise pile up); when full the memory is cleared, and a
//! response whose request was forgotten is recorded without its method and redacted by the
//! key and value rules only (sensitive prompt answers are registered secrets, so the value
//! rule still masks them).

use super::format::{Channel, Direction};
use super::secrets::{sensitive_field_keys, MessageContext, LOGON_INPUT};
use serde_json::Value;
use std::collections::HashMap;

const MAX_OPEN: usize = 4096;

struct Open {
    method: String,
    sensitive_keys: Option<Vec<String>>,
}

#[derive(Default)]
pub(super) struct Correlator {
    /// Keyed by the channel, the direction the request travelled and its id (as JSON text).
    open: HashMap<(Channel, Direction, String), Open>,
}

impl Correlator {
    pub(super) fn observe(&mut self, ch: Channel, dir: Direction, msg: &Value) -> MessageContext {
        let id = msg
            .get("id")
            .filter(|id| !id.is_null())
            .map(Value::to_string);
        let method = msg.get("method").and_then(Value::as_str);
        match (method, id) {
            (Some(method), Some(id)) => {
                let sensitive_keys =
                    (method == LOGON_INPUT).then(|| sensitive_field_keys(msg.get("params")));
                if self.open.len() >= MAX_OPEN {
                    self.open.clear();
                }
                self.open.insert(
                    (ch, dir, id),
                    Open {
                        method: method.to_string(),
                        sensitive_keys: sensitive_keys.clone(),
                    },
                );
                MessageContext {
                    method: Some(method.to_string()),
                    is_response: false,
                    sensitive_keys,
                }
            }
            (Some(method), None) => MessageContext {
                method: Some(method.to_string()),
                ..MessageContext::default()
            },
            (None, Some(id)) => {
                let asked = match dir {
                    Direction::Out => Direction::In,
                    Direction::In => Direction::Out,
                };
                let open = self.open.remove(&(ch, asked, id));
                MessageContext {
                    method: open.as_ref().map(|o| o.method.clone()),
                    is_response: true,
                    sensitive_keys: open.and_then(|o| o.sensitive_keys),
                }
            }
            (None, None) => MessageContext::default(),
        }
    }

    /// Requests remembered while waiting for their answer.
    #[cfg(test)]
    pub(super) fn open_count(&self) -> usize {
        self.open.len()
    }
}
