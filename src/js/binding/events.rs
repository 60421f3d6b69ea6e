//! `client.on` / `once` / `off` (docs/events.md): checks the arguments, keeps the listeners in
//! the JS thread's [`outbox`] and points the engine's event bus at it. Listeners are called on
//! the JS thread, never keep the script alive, and may throw or reject without harm.

use crate::client::events::{ClientEvent, EVENT_NAMES};
use crate::client::Client;
use crate::js::runtime::checked;
use crate::js::runtime::errors::throw;
use crate::js::runtime::outbox::{self, Message};
use crate::js::runtime::values::Raw;
use crate::kernel::arg_error;
use crate::kernel::error::Error as EngineError;
use napi::bindgen_prelude::*;
use napi::JsValue;
use std::sync::Arc;

/// Add `on`, `once` and `off` to the client object and start delivering its events.
pub fn attach(env: &Env, root: &mut Object, client: &Client) -> Result<()> {
    let (target, outbox) = outbox::listeners_target(env)?;
    client
        .events()
        .set_sink(Arc::new(move |event: Option<&ClientEvent>| {
            let message = match event {
                Some(e) => Message::Event(e.name(), e.payload()),
                None => Message::Close,
            };
            outbox.post(target, message);
        }));
    for (name, once) in [("on", false), ("once", true)] {
        let f = env.create_function_from_closure::<Unknown, Raw, _>(name, move |ctx| {
            let env = &*ctx.env;
            let (event, func) = arguments(env, &ctx).or_else(|e| throw(env, e))?;
            let id = outbox::add_listener(env, target, event, func.raw(), once)?;
            let unsubscribe =
                env.create_function_from_closure::<(), (), _>("unsubscribe", move |ctx| {
                    if let Some(id) = id {
                        outbox::remove_listener(ctx.env, target, id);
                    }
                    Ok(())
                })?;
            Ok(Raw(unsubscribe.raw()))
        })?;
        root.set_named_property(name, f)?;
    }
    let off = env.create_function_from_closure::<Unknown, (), _>("off", move |ctx| {
        let env = &*ctx.env;
        let (event, func) = arguments(env, &ctx).or_else(|e| throw(env, e))?;
        outbox::remove_function(env, target, event, func.raw());
        Ok(())
    })?;
    root.set_named_property("off", off)
}

/// `(type, listener)`: a known event name and a function.
fn arguments<'e>(
    env: &'e Env,
    ctx: &napi::bindgen_prelude::FunctionCallContext<'e>,
) -> std::result::Result<(&'static str, Function<'e, Unknown<'e>, Unknown<'e>>), EngineError> {
    let event = checked::string(env, ctx.get::<Unknown>(0).ok(), "type")?;
    let Some(event) = EVENT_NAMES.iter().find(|n| **n == event) else {
        return Err(arg_error::value_error(
            "type",
            &format!("one of {}", quoted(&EVENT_NAMES)),
            &arg_error::Received::of_json(Some(&serde_json::Value::String(event))),
        ));
    };
    let func = checked::function(env, ctx.get::<Unknown>(1).ok(), "listener")?;
    Ok((event, func))
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}
