//! The reference's client-side timeouts (`findReferences` 20 s, `runAtc` 60 s, the unit-test
//! run of the coverage call 120 s): the request is raced against the limit and the caller
//! gets the reference's text when it runs out. Nothing is cancelled on the adt-ls side (the
//! reference sends no `$/cancelRequest`); the late answer is simply dropped.

use super::ns_args::js_number_text;
use crate::kernel::error::{codes, Error, Result};
use std::future::Future;
use std::time::Duration;

/// The longest wait a caller can ask for (a larger value waits this long).
const MAX_WAIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// `timeoutMs` as a wait: negative or NaN is immediate, huge is capped.
pub(super) fn wait_for(ms: f64) -> Duration {
    if ms.is_nan() || ms <= 0.0 {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(ms / 1000.0)
        .unwrap_or(MAX_WAIT)
        .min(MAX_WAIT)
}

/// A request bound that outlives the race by a little, so the race decides (with the
/// reference's text) even when it is longer than the driver's default request timeout.
pub(super) fn outlive(ms: f64) -> Duration {
    wait_for(ms) + Duration::from_secs(1)
}

/// Race `request` against `ms`; on expiry reject with `<label> timed out after <ms>ms — <hint>`
/// (code `ETIMEDOUT`).
pub(super) async fn race<T>(
    request: impl Future<Output = Result<T>>,
    ms: f64,
    label: &str,
    hint: &str,
) -> Result<T> {
    match tokio::time::timeout(wait_for(ms), request).await {
        Ok(out) => out,
        Err(_) => Err(Error::coded(
            codes::TIMEOUT,
            format!("{label} timed out after {}ms — {hint}", js_number_text(ms)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits() {
        assert_eq!(wait_for(-5.0), Duration::ZERO);
        assert_eq!(wait_for(f64::NAN), Duration::ZERO);
        assert_eq!(wait_for(1500.0), Duration::from_millis(1500));
        assert_eq!(wait_for(1e300), MAX_WAIT);
    }

    #[tokio::test(start_paused = true)]
    async fn the_limit_rejects_with_the_reference_text() {
        let slow = async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok::<_, Error>(1)
        };
        let err = race(slow, 100.0, "runAtc", "hint.").await.unwrap_err();
        assert_eq!(err.message, "runAtc timed out after 100ms — hint.");
        assert!(err.has_code(codes::TIMEOUT));
        let fast = async { Ok::<_, Error>(2) };
        assert_eq!(race(fast, 100.0, "x", "y").await.unwrap(), 2);
    }
}
