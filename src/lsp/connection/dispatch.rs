//! What one incoming frame does: a response completes its request, a notification goes to
//! the sink, a server request is answered by the router in a task of its own. Each runs with
//! the frame's backlog charge ([`crate::bounds::backlog`]): ambient while a response or notification
//! is handed on (the queue that keeps what it produced takes it), held by a server request's
//! task until its reply is queued (with a second charge against the connection's tighter
//! bound on server requests in flight). A frame that cannot be used is reported, never dropped
//! silently: a request gets a JSON-RPC error reply, a response too deep to parse fails its own
//! request (`ERR_JSON_TOO_DEEP`), a notification is logged at warn.

use super::{stopped, Connection, Handlers};
use crate::bounds::backlog::{self, Charge};
use crate::bounds::json_depth::MAX_DEPTH;
use crate::kernel::error::{codes, Error};
use crate::kernel::log;
use crate::lsp::message::{self, Incoming, InvalidMessage, RpcError};
use crate::trace::Direction;
use serde_json::Value;
use tokio::sync::watch;

/// JSON-RPC "Internal error": what a failing handler is answered with, as vscode-jsonrpc does.
const INTERNAL_ERROR: i64 = -32603;

pub(super) fn dispatch(
    conn: &Connection,
    handlers: &Handlers,
    body: &[u8],
    shutdown: &watch::Receiver<bool>,
    charge: Charge,
) {
    conn.trace(Direction::In, body);
    match message::parse_incoming(body) {
        Ok(Incoming::Response { id, outcome }) => {
            backlog::dispatching(charge, || conn.complete(&id, outcome));
        }
        Ok(Incoming::Request { id, method, params }) => {
            answer(conn, handlers, shutdown, charge, id, method, Ok(params));
        }
        Ok(Incoming::Notification { method, params }) => {
            if let Some(sink) = &handlers.notifications {
                backlog::dispatching(charge, || sink.notify(&method, params));
            }
        }
        Err(invalid) => refused(conn, handlers, shutdown, charge, *invalid),
    }
}

/// Answer server request `id` in a task of its own: the router's answer for `params`, or the
/// error a refused request gets. Handlers run concurrently: the reader must keep going while
/// one awaits (adt-ls holds `ensureLoggedOn` open while it asks us for the logon).
fn answer(
    conn: &Connection,
    handlers: &Handlers,
    shutdown: &watch::Receiver<bool>,
    charge: Charge,
    id: Value,
    method: String,
    params: Result<Option<Value>, RpcError>,
) {
    let router = handlers.router.clone();
    let in_flight = conn.inner.requests.charge(0);
    let conn = conn.clone();
    let mut shutdown = shutdown.clone();
    tokio::spawn(async move {
        let reply = match params {
            Ok(params) => {
                let answer = tokio::select! {
                    answer = router.route(&method, params) => answer,
                    _ = stopped(&mut shutdown) => return,
                };
                match answer {
                    Ok(result) => message::response_ok(&id, result),
                    Err(msg) => message::response_err(
                        &id,
                        &RpcError {
                            code: INTERNAL_ERROR,
                            message: format!("Request {method} failed with message: {msg}"),
                            data: None,
                        },
                    ),
                }
            }
            Err(refusal) => message::response_err(&id, &refusal),
        };
        conn.send_reply(reply, &mut shutdown).await;
        drop((charge, in_flight));
    });
}

/// A frame that could not be used: tell whoever can still be told.
fn refused(
    conn: &Connection,
    handlers: &Handlers,
    shutdown: &watch::Receiver<bool>,
    charge: Charge,
    invalid: InvalidMessage,
) {
    let InvalidMessage {
        reason,
        id,
        method,
        code,
        too_deep,
    } = invalid;
    match (method, id) {
        (Some(method), Some(id)) => {
            log::warn(format!(
                "lsp: adt-ls's request {method} was refused with a JSON-RPC error: {reason}"
            ));
            let refusal = RpcError {
                code,
                message: format!("Request {method} was refused: {reason}"),
                data: None,
            };
            answer(conn, handlers, shutdown, charge, id, method, Err(refusal));
        }
        (Some(method), None) => {
            log::warn(format!(
                "lsp: adt-ls's notification {method} was dropped: {reason}"
            ));
        }
        (None, Some(id)) if too_deep => conn.fail(&id, |method| {
            log::warn(format!(
                "lsp: adt-ls's response to {method} was refused: {reason}"
            ));
            Error::coded(
                codes::JSON_TOO_DEEP,
                format!(
                    "adt-ls sent a response to {method} nested deeper than {MAX_DEPTH} levels; it was refused."
                ),
            )
        }),
        _ => log::debug(format!("lsp: {reason}")),
    }
}
