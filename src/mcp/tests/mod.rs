//! Tests of the MCP client against real loopback HTTP servers scripted per test
//! (`server`), plus property tests of the SSE parser. `federation` ports the reference's
//! `mcp-federation.test.ts` one to one; the other files pin each rule of docs/wire.md#mcp-streamable-http and
//! the decisions that change it.

mod bounds;
mod connect;
mod federation;
mod lifecycle;
mod nesting;
mod requests;
mod responses;
mod server;
mod sessions;
mod sse_props;
mod support;
mod tools;
mod trace;
