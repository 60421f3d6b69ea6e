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

    /// Cold retry (fast delays) of empty results only, over the answers `answer(attempt)`:
    /// the outcome and the number of attempts made.
    async fn retry_empty(answer: impl Fn(u32) -> Result<Vec<i32>>) -> (Result<Vec<i32>>, u32) {
        let calls = AtomicU32::new(0);
        let out = with_cold_retry(
            fast(),
            counted(&calls, answer),
            |v: &Vec<i32>| v.is_empty(),
            |_| false,
        )
        .await;
        (out, calls.load(Ordering::SeqCst))
    }

    /// Cold retry (fast delays) of transient errors only, over the answers
    /// `answer(attempt)`: the outcome and the number of attempts made.
    async fn retry_transient(answer: impl Fn(u32) -> Result<i32>) -> (Result<i32>, u32) {
        let calls = AtomicU32::new(0);
        let out = with_cold_retry(
            fast(),
            counted(&calls, answer),
            |_| false,
            |e| is_transient_cold_error(&e.message),
        )
        .await;
        (out, calls.load(Ordering::SeqCst))
    }

    #[tokio::test]
    async fn empty_results_are_retried_until_warm() {
        let (out, calls) = retry_empty(|n| Ok(if n < 2 { vec![] } else { vec![1] })).await;
        assert_eq!(out.unwrap(), vec![1]);
        assert_eq!(calls, 3);
    }

    #[tokio::test]
    async fn the_last_cold_result_is_returned() {
        let (out, calls) = retry_empty(|_| Ok(Vec::new())).await;
        assert!(out.unwrap().is_empty());
        assert_eq!(calls, 3);
    }

    #[tokio::test]
    async fn transient_errors_are_retried_others_are_not() {
        let (out, _) = retry_transient(failing_first("Internal error.", 7)).await;
        assert_eq!(out.unwrap(), 7);
        let (out, calls) = retry_transient(|_| Err(Error::new("not found"))).await;
        assert_eq!(out.unwrap_err().message, "not found");
        assert_eq!(calls, 1);
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
