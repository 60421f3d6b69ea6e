//! The LSP channel to adt-ls: framing, message shapes, parameter encoding and the
//! connection task (request correlation, server->client requests, timeouts, close handling).

pub mod connection;
pub mod framing;
pub mod message;
pub mod params;
pub mod requester;
pub mod text;
#[cfg(unix)]
pub mod unix_socket;

#[cfg(unix)]
pub use connection::ReadHost;
pub use connection::{
    CloseHook, CloseReason, Connection, DirectWriter, Feeder, Handlers, NotificationSink,
    RequestRouter, ResponseCallback,
};
pub use requester::LspRequester;
