//! The retry wrappers built on the classifications (docs/wire.md#resilience):
//! `with_relogon` (a logged-off failure or result: re-logon, then run once more, never loop),
//! `with_write_retry` (a write that failed with a session signature: retry once, only if the
//! liveness probe showed the session was really dead and re-logon revived it), and
//! `search_with_revive` (an empty search after which a revive succeeded: search once more).

use super::classify::{is_logged_off_error, is_write_session_error};
use crate::kernel::error::Result;
use crate::kernel::future::BoxFuture;
use std::future::Future;
use std::sync::Arc;

/// "Log on again"; `true` when the session is live afterwards.
pub(crate) type Relogon = Arc<dyn Fn() -> BoxFuture<bool> + Send + Sync>;
/// "Probe, and re-logon if dead"; `true` when a dead session was revived.
pub(crate) type Revive = Arc<dyn Fn() -> BoxFuture<bool> + Send + Sync>;

/// A call the wrappers can run again: each call of the closure starts a fresh attempt.
pub(crate) trait Attempt<T>: FnMut() -> <Self as Attempt<T>>::Run {
    /// One attempt's future.
    type Run: Future<Output = Result<T>>;
}

impl<T, F, Fut> Attempt<T> for F
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T>>,
{
    type Run = Fut;
}

/// Run `call`; after a logged-off error (or a result `logged_off_in_result` flags) and a
/// successful `relogon`, run it once more.
pub(crate) async fn with_relogon<T>(
    relogon: Option<&Relogon>,
    mut call: impl Attempt<T>,
    logged_off_in_result: impl Fn(&T) -> bool,
) -> Result<T> {
    let first = call().await;
    let Some(relogon) = relogon else { return first };
    let retry = match &first {
        Ok(v) => logged_off_in_result(v),
        Err(e) => is_logged_off_error(e),
    };
    if retry && relogon().await {
        return call().await;
    }
    first
}

/// Run a write; on a write-session error, retry once if `revive` reports it revived a dead
/// session. Other errors never trigger a probe.
pub(crate) async fn with_write_retry<T>(
    revive: Option<&Revive>,
    mut run: impl Attempt<T>,
) -> Result<T> {
    match run().await {
        Err(e) if is_write_session_error(&e.message) => {
            if revived(revive).await {
                run().await
            } else {
                Err(e)
            }
        }
        other => other,
    }
}

/// Run a search; if it found nothing and `revive` revived a dead session, search once more.
pub(crate) async fn search_with_revive<T>(
    revive: Option<&Revive>,
    mut run: impl Attempt<T>,
    is_empty: impl Fn(&T) -> bool,
) -> Result<T> {
    let first = run().await?;
    if !is_empty(&first) {
        return Ok(first);
    }
    if revived(revive).await {
        run().await
    } else {
        Ok(first)
    }
}

/// `true` when there is a `revive` and it revived a dead session.
async fn revived(revive: Option<&Revive>) -> bool {
    match revive {
        Some(revive) => revive().await,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::error::Error;
    use crate::resilience::test_support::{counted, failing_first};
    use std::sync::atomic::{AtomicU32, Ordering};

    fn counter(result: bool) -> (Arc<AtomicU32>, Relogon) {
        let n = Arc::new(AtomicU32::new(0));
        let c = n.clone();
        let f: Relogon = Arc::new(move || {
            c.fetch_add(1, Ordering::SeqCst);
            Box::pin(async move { result })
        });
        (n, f)
    }

    #[tokio::test]
    async fn relogon_retries_once_after_a_logged_off_error() {
        let (relogons, relogon) = counter(true);
        let calls = AtomicU32::new(0);
        let out = with_relogon(
            Some(&relogon),
            counted(&calls, failing_first("Your user was logged off", 5)),
            |_| false,
        )
        .await
        .unwrap();
        assert_eq!(out, 5);
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        assert_eq!(relogons.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn relogon_is_not_tried_for_normal_errors_and_never_loops() {
        let (relogons, relogon) = counter(true);
        let err = with_relogon(
            Some(&relogon),
            || async { Err::<i32, _>(Error::new("not found")) },
            |_| false,
        )
        .await
        .unwrap_err();
        assert_eq!(err.message, "not found");
        assert_eq!(relogons.load(Ordering::SeqCst), 0);
        let calls = AtomicU32::new(0);
        let err = with_relogon(
            Some(&relogon),
            counted(&calls, |_| Err::<i32, _>(Error::new("logged off"))),
            |_| false,
        )
        .await
        .unwrap_err();
        assert_eq!(err.message, "logged off");
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn relogon_on_a_logged_off_result() {
        let (_, relogon) = counter(true);
        let calls = AtomicU32::new(0);
        let out = with_relogon(Some(&relogon), counted(&calls, Ok), |v| *v == 0)
            .await
            .unwrap();
        assert_eq!(out, 1);
        let (_, failing) = counter(false);
        let out = with_relogon(Some(&failing), || async { Ok(0) }, |v| *v == 0)
            .await
            .unwrap();
        assert_eq!(out, 0, "a failed relogon returns the original");
    }

    #[tokio::test]
    async fn write_retry_only_after_a_revived_session_error() {
        let (probes, revive) = counter(true);
        let calls = AtomicU32::new(0);
        let out = with_write_retry(
            Some(&revive),
            counted(&calls, failing_first("423 invalid lock handle", ())),
        )
        .await;
        assert!(out.is_ok());
        assert_eq!(probes.load(Ordering::SeqCst), 1);
        let (probes, revive) = counter(false);
        let err = with_write_retry(Some(&revive), || async {
            Err::<(), _>(Error::new("HTTP 500"))
        })
        .await
        .unwrap_err();
        assert_eq!(err.message, "HTTP 500");
        assert_eq!(probes.load(Ordering::SeqCst), 1, "alive: no retry");
        let err = with_write_retry(Some(&revive), || async {
            Err::<(), _>(Error::new("Syntax error"))
        })
        .await
        .unwrap_err();
        assert_eq!(err.message, "Syntax error");
        assert_eq!(
            probes.load(Ordering::SeqCst),
            1,
            "no probe for a deterministic error"
        );
        assert!(
            with_write_retry::<()>(None, || async { Err(Error::new("HTTP 500")) })
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn search_with_revive_rules() {
        let (probes, revive) = counter(true);
        let calls = AtomicU32::new(0);
        let out = search_with_revive(Some(&revive), counted(&calls, Ok), |v| *v == 0)
            .await
            .unwrap();
        assert_eq!(out, 1);
        assert_eq!(probes.load(Ordering::SeqCst), 1);
        let out = search_with_revive(Some(&revive), || async { Ok(3) }, |v| *v == 0)
            .await
            .unwrap();
        assert_eq!(out, 3);
        assert_eq!(probes.load(Ordering::SeqCst), 1, "hits never probe");
        let (_, alive) = counter(false);
        assert_eq!(
            search_with_revive(Some(&alive), || async { Ok(0) }, |v| *v == 0)
                .await
                .unwrap(),
            0
        );
        assert_eq!(
            search_with_revive(None, || async { Ok(0) }, |v| *v == 0)
                .await
                .unwrap(),
            0
        );
    }
}
