//! The N-API layer, in two parts. [`binding`] converts the exported API's JS values to engine
//! types and back and forwards to the engine: no behaviour and no `unsafe`. [`runtime`] is the
//! JS-thread runtime the binding stands on: settling promises, the outbox of events, reading
//! adt-ls on the JS thread through libuv, references held from Rust, calling user callbacks,
//! caller stacks, logging delivery and the error class. All of the layer's `unsafe` is there.

mod binding;
mod runtime;
