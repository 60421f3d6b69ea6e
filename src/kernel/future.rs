//! The boxed, sendable future that trait objects across the engine return (request routers,
//! requesters, strategies, retry wrappers): one alias, so every floor names it the same way.

use std::future::Future;
use std::pin::Pin;

/// A heap-allocated future that may move between threads.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;
