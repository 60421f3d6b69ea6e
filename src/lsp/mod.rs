//! The LSP channel to adt-ls: framing, message shapes, parameter encoding and the
//! connection task (request correlation, server->client requests, timeouts, close handling).

pub(crate) mod connection;
pub mod framing;
pub mod message;
pub(crate) mod params;
pub(crate) mod requester;
pub mod text;
#[cfg(unix)]
pub(crate) mod unix_socket;

#[cfg(unix)]
pub(crate) use connection::ReadHost;
pub(crate) use connection::{
    CloseHook, CloseReason, Connection, DirectWriter, Handlers, NotificationSink, RequestRouter,
    ResponseCallback,
};
pub(crate) use requester::LspRequester;
