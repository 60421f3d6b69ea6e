//! The cancellation scope: a future run inside [`cancellable`] is one the caller may abandon
//! (an `AbortSignal` or a `timeoutMs` of the call). Wire requests dropped unanswered inside
//! such a scope tell the peer (`$/cancelRequest` on LSP, `notifications/cancelled` on MCP);
//! outside it they are forgotten silently, as the reference does (docs/wire.md), so calls
//! without a signal behave exactly as before and pay nothing.

use std::future::Future;

tokio::task_local! {
    static CANCEL_ON_DROP: ();
}

/// Run `fut` so that requests it leaves unanswered when dropped are cancelled on the wire.
/// Dropping the returned future drops `fut` inside the scope (tokio's task-local futures
/// drop their inner future with the value set), so the drop guards see it.
pub(crate) fn cancellable<F: Future>(fut: F) -> impl Future<Output = F::Output> {
    CANCEL_ON_DROP.scope((), fut)
}

/// True inside [`cancellable`] (while polling or dropping its future).
pub(crate) fn active() -> bool {
    CANCEL_ON_DROP.try_with(|_| ()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Probe(std::sync::Arc<std::sync::Mutex<Option<bool>>>);
    impl Drop for Probe {
        fn drop(&mut self) {
            if let Ok(mut seen) = self.0.lock() {
                *seen = Some(active());
            }
        }
    }

    #[tokio::test]
    async fn active_only_inside_the_scope() {
        assert!(!active());
        assert!(cancellable(async { active() }).await);
        assert!(!active());
    }

    #[tokio::test]
    async fn a_future_dropped_unfinished_is_dropped_inside_the_scope() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
        let probe = Probe(seen.clone());
        let fut = cancellable(async move {
            let _probe = probe;
            std::future::pending::<()>().await
        });
        let mut fut = Box::pin(fut);
        // Poll once so the inner future holds the probe, then drop it unfinished.
        let _ = futures_util::poll!(fut.as_mut());
        drop(fut);
        assert_eq!(*seen.lock().unwrap(), Some(true));
    }

    #[tokio::test]
    async fn outside_the_scope_a_drop_is_not_cancellable() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
        drop(Probe(seen.clone()));
        assert_eq!(*seen.lock().unwrap(), Some(false));
    }
}
