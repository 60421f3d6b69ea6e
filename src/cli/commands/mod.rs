//! The commands that work through an adt-ls session, one module each. They call the engine
//! by the client's method names (`Client::call`, the dispatch the JS namespace functions use)
//! and nothing else: no direct ADT REST calls (docs/decisions.md#d10). [`Run`] holds what they
//! share: the client, the progress display, the report paths, the format, `--jobs` and
//! `--timeout-ms`.

pub(crate) mod activate;
pub(crate) mod atc;
pub(crate) mod search;
pub(crate) mod source;
pub(crate) mod tools;
pub(crate) mod transport;
pub(crate) mod unit;

use super::args::Format;
use super::exit::{Failure, Status};
use super::objects::Obj;
use super::paths::PathScheme;
use super::progress::Progress;
use crate::client::{Args, Client};
use futures_util::stream::{self, StreamExt};
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// The elements of the array under `key` in `value`; none when there is no such array.
pub(crate) fn array_at<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// `1 finding`, `3 findings`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// What a command shares with the others.
pub(crate) struct Run {
    pub client: Client,
    pub progress: Arc<Progress>,
    pub paths: PathScheme,
    pub format: Format,
    pub jobs: usize,
    pub timeout: Option<Duration>,
}

/// What a command produced: the report for stdout, the exit status and, for status 1, why.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub report: String,
    pub status: Status,
    pub summary: Option<String>,
}

impl Outcome {
    pub(crate) fn ok(report: String) -> Outcome {
        Outcome {
            report,
            status: Status::Success,
            summary: None,
        }
    }
}

impl Run {
    /// Call a client method, bounded by `--timeout-ms` (the call is cancelled on the wire
    /// when the bound passes, as the run is inside a cancel scope).
    pub(crate) async fn call(&self, method: &str, args: Args) -> Result<Value, Failure> {
        self.call_in(None, method, args).await
    }

    /// [`Run::call`] with adt-ls's progress reports shown for `object`.
    pub(crate) async fn call_in(
        &self,
        object: Option<&str>,
        method: &str,
        args: Args,
    ) -> Result<Value, Failure> {
        let client = self.client.clone();
        let call = |sink| {
            let method = method.to_string();
            async move {
                match sink {
                    Some(sink) => {
                        crate::kernel::progress::scoped(sink, || client.call(&method, args)).await
                    }
                    None => client.call(&method, args).await,
                }
            }
        };
        let sink = object.map(|o| self.progress.sink(o));
        let result = match self.timeout {
            Some(limit) => tokio::time::timeout(limit, call(sink)).await.map_err(|_| {
                Failure::unavailable(
                    "adt-ls failed",
                    format!(
                        "{method} timed out after {}ms (--timeout-ms)",
                        limit.as_millis()
                    ),
                )
            })?,
            None => call(sink).await,
        };
        result
            .map(|v| v.unwrap_or(Value::Null))
            .map_err(Failure::from_call)
    }

    /// The call options object of a long operation: `timeoutMs` from `--timeout-ms`.
    pub(crate) fn timeout_opts(&self) -> serde_json::Map<String, Value> {
        let mut opts = serde_json::Map::new();
        if let Some(t) = self.timeout {
            opts.insert("timeoutMs".into(), Value::from(t.as_millis() as u64));
        }
        opts
    }

    /// Run `work` for each object, `--jobs` at a time, results in the objects' order; when
    /// one fails, the command fails with the first failure once all of them have run.
    pub(crate) async fn each<T, F, Fut>(&self, objects: &[Obj], work: F) -> Result<Vec<T>, Failure>
    where
        F: Fn(Obj) -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let results: Vec<Result<T, Failure>> = stream::iter(objects.iter().cloned().map(work))
            .buffered(self.jobs.max(1))
            .collect()
            .await;
        results.into_iter().collect()
    }
}
