//! Tests for the logon engine: reentrance.test.ts and strategy.test.ts as behaviours, plus
//! the native additions (bounded waits, sap-client, extraCaCerts, redaction).

mod destinations;
mod e2e;
mod handlers;
mod interactive;
mod logon_url;
mod reentrance;
mod strategy;
mod support;
