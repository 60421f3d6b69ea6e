//! Where a queued object operation runs (docs/wire.md#the-object-queue): the destination, the
//! `ObjectRef` with the call's other options, the file URI, and the operation's place in the
//! object's queue. When the ref carries its `uri`, the URI is known at the call, so the place
//! is taken then and calls on one object run in the order they were made; otherwise the
//! object is resolved first (outside the queue) and the place taken when that is done.

use super::args::Args;
use super::object_queue::{Place, Turn};
use super::ref_uri::check_destination;
use super::resolve::{resolve_with_include, with_include, ObjectRef};
use super::Client;
use crate::kernel::error::Result;
use serde_json::{Map, Value};

/// Whether the call's `include` option picks a class include file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Include {
    /// The object's main file (the call has no `include`).
    Main,
    /// `include` of argument 0, when given.
    FromArgs,
}

/// A located object operation.
pub(crate) struct Located {
    pub dest: String,
    pub object: ObjectRef,
    /// The whole argument object, for the call's other options.
    pub opts: Map<String, Value>,
    /// The file the operation works on.
    pub uri: String,
}

/// An operation on its way to its turn.
pub(crate) enum Locating {
    /// The URI was known at the call: the place is taken.
    Known(Box<Located>, Place),
    /// The object is searched first.
    Search(Box<Located>, Include),
}

/// Record the call, require a destination, read argument 0 as an `ObjectRef` and, when it
/// carries a `uri`, check it and take the place in its queue now.
pub(crate) fn locate(client: &Client, a: &Args, include: Include) -> Result<Locating> {
    let dest = client.begin()?;
    let (object, opts) = ObjectRef::arg(a, 0)?;
    let mut located = Box::new(Located {
        dest,
        object,
        opts,
        uri: String::new(),
    });
    let Some(given) = located.object.uri.clone() else {
        return Ok(Locating::Search(located, include));
    };
    check_destination(&located.dest, &located.object.name, &given)?;
    located.uri = with_include(given, &located.object, include_of(&located.opts, include))?;
    let place = client.inner().objects.enter(&located.uri);
    Ok(Locating::Known(located, place))
}

fn include_of(opts: &Map<String, Value>, include: Include) -> Option<&Value> {
    match include {
        Include::Main => None,
        Include::FromArgs => opts.get("include"),
    }
}

impl Locating {
    /// The whole argument object (the call's other options).
    pub(crate) fn opts(&self) -> &Map<String, Value> {
        match self {
            Locating::Known(located, _) | Locating::Search(located, _) => &located.opts,
        }
    }

    /// Resolve the object when needed, then wait for its turn.
    pub(crate) async fn turn(self, client: &Client) -> Result<(Located, Turn)> {
        match self {
            Locating::Known(located, place) => Ok((*located, place.turn().await)),
            Locating::Search(mut located, include) => {
                let include = include_of(&located.opts, include);
                located.uri =
                    resolve_with_include(client, &located.dest, &located.object, include).await?;
                let place = client.inner().objects.enter(&located.uri);
                Ok((*located, place.turn().await))
            }
        }
    }
}
