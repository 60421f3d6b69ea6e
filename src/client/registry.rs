//! The registry of client methods: every method of the JS client object by its dotted name,
//! with its TypeScript signature, JSDoc, void-ness and the function implementing it. The
//! entries live in `registry/table.rs`; dispatch ([`find`]), the JS namespace object, the
//! generated `AdtLsClient` declaration (`build.rs` renders the same table with
//! `registry/render.rs`) and the tests all derive from it. Each entry starts its method in
//! one of four ways (the macros below): a method's function says only what is particular to
//! it, and the clone of the client, the work done at the call and the one `Box` are here.

// Also compiled into build.rs, which renders the `AdtLsClient` declaration from the table; the
// library itself reads only the method specs, the tests check the rendering.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod render;
pub(crate) mod specs;

use super::args::Args;
use super::locate::{locate, Include, Locating};
use super::repository::FileCall;
use super::{
    directory, lifecycle, navigation, quality, raw, repository, services, source, transport,
    versions, Client,
};
use crate::kernel::error::Result;
use crate::kernel::future::BoxFuture;
use render::{MethodSpec, NamespaceSpec};
use serde_json::Value;
use std::future::Future;

/// Starts a method: synchronous work happens before the future is returned.
pub(crate) type Run = fn(&Client, Args) -> BoxFuture<Result<Value>>;

/// A method whose work all happens when its future is polled:
/// `async fn(me: Client, a: Args) -> Result<Value>`.
macro_rules! polled {
    ($body:path) => {
        |c, a| start_polled(c, a, $body)
    };
}

/// An operation on one object, located at the call ([`locate`] with `Include::$include`):
/// `async fn(me: Client, a: Args, target: Locating) -> Result<Value>`.
macro_rules! on_object {
    ($include:ident, $body:path) => {
        |c, a| start_on_object(c, a, Include::$include, $body)
    };
}

/// A file operation by URI, queued on its file at the call ([`FileCall`]):
/// `async fn(me: Client, a: Args, call: FileCall) -> Result<Value>`.
macro_rules! on_file {
    ($body:path) => {
        |c, a| start_on_file(c, a, $body)
    };
}

/// A method that starts its work at the call (records it, sends its first request):
/// `fn(&Client, Args) -> impl Future<Output = Result<Value>>`.
macro_rules! at_call {
    ($body:path) => {
        |c, a| Box::pin($body(c, a))
    };
}

/// Starts `body` on its own clone of the client; nothing runs before the future is polled.
fn start_polled<F, Fut>(client: &Client, a: Args, body: F) -> BoxFuture<Result<Value>>
where
    F: FnOnce(Client, Args) -> Fut,
    Fut: Future<Output = Result<Value>> + Send + 'static,
{
    Box::pin(body(client.clone(), a))
}

/// Locates the object at the call (the destination, the ref and, for a ref with its `uri`,
/// the place in the object's queue), so that calls on one object keep their order; `body`
/// gets the located object when the future is polled (a locating error ends the call first).
fn start_on_object<F, Fut>(
    client: &Client,
    a: Args,
    include: Include,
    body: F,
) -> BoxFuture<Result<Value>>
where
    F: FnOnce(Client, Args, Locating) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Value>> + Send + 'static,
{
    let target = locate(client, &a, include);
    let me = client.clone();
    Box::pin(async move { body(me, a, target?).await })
}

/// Takes the file's place in its queue at the call (argument 0 is the URI); when the future
/// is polled, records the call, then runs `body`.
fn start_on_file<F, Fut>(client: &Client, a: Args, body: F) -> BoxFuture<Result<Value>>
where
    F: FnOnce(Client, Args, FileCall) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Value>> + Send + 'static,
{
    let call = FileCall::new(client, &a);
    let me = client.clone();
    Box::pin(async move {
        me.touch()?;
        body(me, a, call).await
    })
}

/// One client method: its declaration and its implementation.
pub(crate) struct Method {
    pub spec: MethodSpec,
    pub run: Run,
}

macro_rules! client_namespaces {
    ($( $(#[doc = $doc:literal])* $name:literal => $interface:literal; )*) => {
        /// The client's namespaces, in declaration order (build.rs and the tests render them).
        #[cfg_attr(not(test), allow(dead_code))]
        pub(crate) static NAMESPACES: &[NamespaceSpec] = &[$(
            NamespaceSpec { name: $name, interface: $interface, doc: concat!($($doc, "\n",)*) },
        )*];
    };
}

macro_rules! client_methods {
    ($( $(#[doc = $doc:literal])* $name:literal $(<$generics:literal>)? ($($params:literal)?) -> $result:literal = $run:expr; )*) => {
        /// Every method of the client object, in declaration order.
        pub(crate) static METHODS: &[Method] = &[$(
            Method {
                spec: MethodSpec {
                    name: $name,
                    generics: concat!("" $(, $generics)?),
                    params: concat!("" $(, $params)?),
                    result: $result,
                    doc: concat!($($doc, "\n",)*),
                },
                run: $run,
            },
        )*];
    };
}

include!("registry/table.rs");

/// The method with this dotted name.
pub(crate) fn find(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.spec.name == name)
}

/// The declarations of every method (what `build.rs` renders).
pub(crate) fn specs() -> impl Iterator<Item = &'static MethodSpec> {
    METHODS.iter().map(|m| &m.spec)
}

#[cfg(test)]
mod tests;
