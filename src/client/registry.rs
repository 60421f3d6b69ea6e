//! The registry of client methods: every method of the JS client object by its dotted name,
//! with its TypeScript signature, JSDoc, void-ness and the function implementing it. The
//! entries live in `registry/table.rs`; dispatch ([`find`]), the JS namespace object, the
//! generated `AdtLsClient` declaration (`build.rs` renders the same table with
//! `registry/render.rs`) and the tests all derive from it.

// Also compiled into build.rs, which renders the `AdtLsClient` declaration from the table; the
// library itself reads only the method specs, the tests check the rendering.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod render;

use super::args::Args;
use super::{
    directory, lifecycle, navigation, quality, raw, repository, services, source, transport,
    versions, Client,
};
use crate::kernel::error::Result;
use crate::kernel::future::BoxFuture;
use render::{MethodSpec, NamespaceSpec};
use serde_json::Value;
use std::sync::LazyLock;

/// Starts a method: synchronous work happens before the future is returned.
pub(crate) type Run = fn(&Client, Args) -> BoxFuture<Result<Value>>;

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

/// The known keys of method `name`'s options object, from its declared `opts` type
/// ([`MethodSpec::option_keys`]); empty for an unknown name.
pub(crate) fn option_keys(name: &str) -> &'static [&'static str] {
    static KEYS: LazyLock<Vec<(&str, Vec<&str>)>> = LazyLock::new(|| {
        METHODS
            .iter()
            .map(|m| (m.spec.name, m.spec.option_keys()))
            .collect()
    });
    KEYS.iter()
        .find(|(method, _)| *method == name)
        .map_or(&[], |(_, keys)| keys.as_slice())
}

/// The declarations of every method (what `build.rs` renders).
pub(crate) fn specs() -> impl Iterator<Item = &'static MethodSpec> {
    METHODS.iter().map(|m| &m.spec)
}

#[cfg(test)]
mod tests;
