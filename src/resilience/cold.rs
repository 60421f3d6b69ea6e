//! Cold retry (the reference's `withColdRetry`): adt-ls answers the first searches after a
//! logon with empty results or `Internal error` while its index warms up. Attempt `i+1` waits
//! `delay × (i+1)` (500 ms, then 1000 ms by default); the last attempt's outcome is returned
//! as it is.

use crate::kernel::error::{Error, Result};
use std::future::Future;
use std::time::Duration;

#[derive(Debug, Clone, Copy)]
pub(crate) struct ColdRetry {
    pub attempts: u32,
    pub delay: Duration,
}

impl Default for ColdRetry {
    fn default() -> Self {
        ColdRetry {
            attempts: 3,
            delay: Duration::from_millis(500),
        }
    }
}

/// Run `attempt` until it gives a result that `retry_result` accepts, or an error that
/// `retry_error` does not want retried, or the attempts run out.
pub(crate) async fn with_cold_retry<T, F, Fut>(
    opts: ColdRetry,
    mut attempt: F,
    retry_result: impl Fn(&T) -> bool,
    retry_error: impl Fn(&Error) -> bool,
) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T>>,
{
    let attempts = opts.attempts.max(1);
    let mut i = 0;
    loop {
        let last = i + 1 >= attempts;
        match attempt().await {
            Ok(v) if last || !retry_result(&v) => return Ok(v),
            Err(e) if last || !retry_error(&e) => return Err(e),
            _ => {}
        }
        tokio::time::sleep(opts.delay * (i + 1)).await;
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::classify::is_transient_cold_error;
    use crate::resilience::test_support::{counted, failing_first};
    use std::sync::atomic::{AtomicU32, Ordering};

    fn fast() -> ColdRetry {
        ColdRetry {
            attempts: 3,
            delay: Duration::from_millis(1),
        }
    }

    #[tokio::test]
    async fn empty_results_are_retried_until_warm() {
        let calls = AtomicU32::new(0);
        let out = with_cold_retry(
            fast(),
            counted(&calls, |n| Ok(if n < 2 { vec![] } else { vec![1] })),
            |v: &Vec<i32>| v.is_empty(),
            |_| false,
        )
        .await
        .unwrap();
        assert_eq!(out, vec![1]);
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn the_last_cold_result_is_returned() {
        let calls = AtomicU32::new(0);
        let out = with_cold_retry(
            fast(),
            counted(&calls, |_| Ok(Vec::<i32>::new())),
            |v: &Vec<i32>| v.is_empty(),
            |_| false,
        )
        .await
        .unwrap();
        assert!(out.is_empty());
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn transient_errors_are_retried_others_are_not() {
        let calls = AtomicU32::new(0);
        let out = with_cold_retry(
            fast(),
            counted(&calls, failing_first("Internal error.", 7)),
            |_| false,
            |e| is_transient_cold_error(&e.message),
        )
        .await
        .unwrap();
        assert_eq!(out, 7);
        let calls = AtomicU32::new(0);
        let err = with_cold_retry(
            fast(),
            counted(&calls, |_| Err::<i32, _>(Error::new("not found"))),
            |_| false,
            |e| is_transient_cold_error(&e.message),
        )
        .await
        .unwrap_err();
        assert_eq!(err.message, "not found");
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn backoff_is_linear() {
        let start = tokio::time::Instant::now();
        let _ = with_cold_retry(
            ColdRetry::default(),
            || async { Ok(0) },
            |_| true,
            |_| false,
        )
        .await;
        assert_eq!(start.elapsed(), Duration::from_millis(1500));
    }
}
