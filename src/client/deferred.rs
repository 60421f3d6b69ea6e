//! A caller error held back until the method's own argument checks have run: a call's bad
//! options (`signal`, `timeoutMs`, `onProgress`) come after the method's other arguments, so
//! they are reported when the method is about to send its first request (every method reads
//! its arguments before that) or, when it sends none, instead of its result or of a state
//! error (not connected, disposed: methods check the state before their arguments, and bad
//! options used to be reported before anything). The first bad argument is thereby the one
//! named, and nothing reaches the wire. The error travels in a task-local slot: client
//! methods run in the caller's task and spawn none.

use crate::kernel::error::{codes, Error, Result};
use std::future::Future;
use std::sync::{Arc, Mutex};

type Slot = Arc<Mutex<Option<Error>>>;

tokio::task_local! {
    static PENDING: Slot;
}

/// The held-back error of the running call, taken (so it is reported once).
pub(crate) fn take() -> Option<Error> {
    PENDING.try_with(take_from).ok().flatten()
}

fn take_from(slot: &Slot) -> Option<Error> {
    slot.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// The held-back error of one call (see the module doc): start the method with
/// [`Held::start`], then await it through [`Held::finish`].
pub(crate) struct Held(Slot);

/// Hold `pending` back for the call about to start.
pub(crate) fn hold(pending: Option<Error>) -> Held {
    Held(Arc::new(Mutex::new(pending)))
}

impl Held {
    /// Run the method's synchronous start (which may already send its first request).
    pub(crate) fn start<R>(&self, start: impl FnOnce() -> R) -> R {
        PENDING.sync_scope(self.0.clone(), start)
    }

    /// Await the method; an error still held when it succeeded, or failed on the client's
    /// state, replaces its outcome.
    pub(crate) fn finish<T, Fut>(self, fut: Fut) -> impl Future<Output = Result<T>> + Send + 'static
    where
        T: Send + 'static,
        Fut: Future<Output = Result<T>> + Send + 'static,
    {
        let slot = self.0;
        let outer = slot.clone();
        PENDING.scope(slot, async move {
            let out = fut.await;
            let replaceable = match &out {
                Ok(_) => true,
                Err(e) => e.has_code(codes::NOT_CONNECTED) || e.has_code(codes::DISPOSED),
            };
            match take_from(&outer) {
                Some(e) if replaceable => Err(e),
                _ => out,
            }
        })
    }
}

/// Start and await a method with `pending` held back.
#[cfg(test)]
fn run<T, F, Fut>(
    pending: Option<Error>,
    start: F,
) -> impl Future<Output = Result<T>> + Send + 'static
where
    T: Send + 'static,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<T>> + Send + 'static,
{
    let held = hold(pending);
    let fut = held.start(start);
    held.finish(fut)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending() -> Option<Error> {
        Some(Error::new(
            "options.signal must be an instance of AbortSignal",
        ))
    }

    #[tokio::test]
    async fn the_method_s_own_error_comes_first() {
        let out: Result<()> = run(pending(), || async {
            Err(Error::new("uri must be a string"))
        })
        .await;
        assert_eq!(out.unwrap_err().message, "uri must be a string");
    }

    #[tokio::test]
    async fn the_held_error_stops_the_first_request_and_is_reported_once() {
        let out: Result<&str> = run(pending(), || async {
            match take() {
                Some(e) => Err(e),
                None => Ok("sent"),
            }
        })
        .await;
        assert_eq!(
            out.unwrap_err().message,
            "options.signal must be an instance of AbortSignal"
        );
        let once: Result<bool> = run(pending(), || async {
            let first = take().is_some();
            Ok(first && take().is_none())
        })
        .await;
        assert!(once.unwrap(), "taken once, not reported again at the end");
    }

    #[tokio::test]
    async fn a_method_without_requests_fails_with_the_held_error_instead_of_its_result() {
        let out: Result<u8> = run(pending(), || async { Ok(1) }).await;
        assert!(out.is_err());
        let fine: Result<u8> = run(None, || async { Ok(1) }).await;
        assert_eq!(fine.unwrap(), 1);
        assert!(take().is_none(), "nothing outside a call");
    }

    #[tokio::test]
    async fn a_state_error_before_any_request_gives_way_to_the_held_error() {
        let state = || Error::coded(codes::NOT_CONNECTED, "No ABAP destination is connected.");
        let out: Result<()> = run(pending(), || async move { Err(state()) }).await;
        assert_eq!(
            out.unwrap_err().message,
            "options.signal must be an instance of AbortSignal"
        );
        let plain: Result<()> = run(None, || async move { Err(state()) }).await;
        assert!(plain.unwrap_err().has_code(codes::NOT_CONNECTED));
    }

    #[test]
    fn the_method_is_started_inside_the_scope() {
        let fut = run(pending(), || {
            let seen = take();
            async move { seen.map_or(Ok(()), Err) }
        });
        let out = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(fut);
        assert!(out.is_err());
    }
}
