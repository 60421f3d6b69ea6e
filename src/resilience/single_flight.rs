//! Single flight (the reference's `makeRelogon`): concurrent callers share one attempt in
//! flight and all get its outcome; a call after it settled starts a new attempt.

use std::future::Future;
use std::sync::Mutex;
use tokio::sync::watch;

#[derive(Default)]
pub(crate) struct SingleFlight {
    running: Mutex<Option<watch::Receiver<Option<bool>>>>,
}

impl SingleFlight {
    #[cfg(test)]
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Join the attempt in flight, or start `attempt` when none is.
    pub(crate) async fn run<F, Fut>(&self, attempt: F) -> bool
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = bool>,
    {
        let joined = {
            let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
            match running.as_ref() {
                Some(rx) => Err(rx.clone()),
                None => {
                    let (tx, rx) = watch::channel(None);
                    *running = Some(rx);
                    Ok(tx)
                }
            }
        };
        match joined {
            Ok(tx) => {
                let outcome = attempt().await;
                *self.running.lock().unwrap_or_else(|p| p.into_inner()) = None;
                let _ = tx.send(Some(outcome));
                outcome
            }
            Err(mut rx) => match rx.wait_for(Option::is_some).await {
                Ok(v) => v.unwrap_or(false),
                Err(_) => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test]
    async fn concurrent_callers_share_one_attempt() {
        let sf = Arc::new(SingleFlight::new());
        let calls = Arc::new(AtomicU32::new(0));
        let mut tasks = Vec::new();
        for _ in 0..5 {
            let sf = sf.clone();
            let calls = calls.clone();
            tasks.push(tokio::spawn(async move {
                sf.run(|| async move {
                    calls.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    true
                })
                .await
            }));
        }
        for t in tasks {
            assert!(t.await.unwrap());
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        // A later call runs again.
        assert!(!sf.run(|| async { false }).await);
    }
}
