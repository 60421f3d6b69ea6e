//! The per-object operation queue (docs/wire.md#the-object-queue): one FIFO line per client and
//! object key, where the key is the URI up to and including its last `/` (a repotree object is
//! one directory, so its main file, includes and metadata share a line). An operation takes
//! its [`Place`] when it knows the URI (at the call for a URI argument, after resolution
//! otherwise) and runs while it holds the [`Turn`]. Dropping either passes the line on, so a
//! failed, cancelled or timed-out operation never blocks the next, and a key with nobody in
//! line is removed (docs/decisions.md#d9-13).
//!
//! Hand-written rather than `tokio::sync::Mutex` per key: a place must be taken synchronously
//! at the call (so calls keep their order even when their futures are first polled in another
//! order), and the table must drop idle keys.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::Notify;

/// The queue key of `uri`: everything up to and including its last `/` (`''` without one).
fn queue_key(uri: &str) -> &str {
    match uri.rfind('/') {
        Some(i) => &uri[..=i],
        None => "",
    }
}

/// A key that is present is busy (someone holds its turn); its deque holds the waiters.
type Lines = HashMap<String, VecDeque<Arc<Waiter>>>;

/// One client's lines.
#[derive(Default)]
pub(crate) struct ObjectQueues {
    lines: Arc<Mutex<Lines>>,
}

/// A waiter in a line; `granted` is set (under the table lock) when the turn passes to it.
#[derive(Default)]
struct Waiter {
    granted: AtomicBool,
    notify: Notify,
}

/// A place in a line, taken synchronously; [`Place::turn`] waits until it is first.
pub(crate) struct Place {
    lines: Arc<Mutex<Lines>>,
    key: String,
    /// `None` when the line was free: the turn is ours at once.
    waiter: Option<Arc<Waiter>>,
    /// Set once the place became a [`Turn`] (which then releases the line).
    taken: bool,
}

/// The right to run on an object; dropping it lets the next in line run.
pub(crate) struct Turn {
    lines: Arc<Mutex<Lines>>,
    key: String,
}

fn lock(lines: &Mutex<Lines>) -> MutexGuard<'_, Lines> {
    lines.lock().unwrap_or_else(|p| p.into_inner())
}

/// Pass the line `key` to its next waiter, or drop the key when nobody waits.
fn release(lines: &mut Lines, key: &str) {
    let Some(waiting) = lines.get_mut(key) else {
        return;
    };
    match waiting.pop_front() {
        Some(next) => {
            next.granted.store(true, Ordering::Release);
            next.notify.notify_one();
        }
        None => {
            lines.remove(key);
        }
    }
}

impl ObjectQueues {
    /// Take a place in the line of `uri`'s object, behind everyone already there.
    pub(crate) fn enter(&self, uri: &str) -> Place {
        let key = queue_key(uri).to_string();
        let mut lines = lock(&self.lines);
        let waiter = match lines.get_mut(&key) {
            None => {
                lines.insert(key.clone(), VecDeque::new());
                None
            }
            Some(waiting) => {
                let waiter = Arc::new(Waiter::default());
                waiting.push_back(waiter.clone());
                Some(waiter)
            }
        };
        Place {
            lines: self.lines.clone(),
            key,
            waiter,
            taken: false,
        }
    }

    /// How many keys are busy (tests).
    #[cfg(test)]
    fn busy_keys(&self) -> usize {
        lock(&self.lines).len()
    }
}

impl Place {
    /// Wait until this place is first in its line.
    pub(crate) async fn turn(mut self) -> Turn {
        if let Some(waiter) = self.waiter.clone() {
            // `notify_one` stores a permit when nobody is waiting yet, so a grant between the
            // check and `notified()` is not lost.
            while !waiter.granted.load(Ordering::Acquire) {
                waiter.notify.notified().await;
            }
        }
        self.taken = true;
        Turn {
            lines: self.lines.clone(),
            key: std::mem::take(&mut self.key),
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.taken {
            return;
        }
        let mut lines = lock(&self.lines);
        match &self.waiter {
            // Granted (at entry or since): the line is ours, so pass it on.
            None => release(&mut lines, &self.key),
            Some(w) if w.granted.load(Ordering::Acquire) => release(&mut lines, &self.key),
            Some(w) => {
                if let Some(waiting) = lines.get_mut(&self.key) {
                    waiting.retain(|other| !Arc::ptr_eq(other, w));
                }
            }
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        release(&mut lock(&self.lines), &self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::sync::mpsc;

    const A: &str = "abap:/repotree-v1/ADTLS/Classes/ZCL_A/zcl_a.clas.abap";
    const A_INCLUDE: &str = "abap:/repotree-v1/ADTLS/Classes/ZCL_A/zcl_a.clas.testclasses.abap";
    const B: &str = "abap:/repotree-v1/ADTLS/Classes/ZCL_B/zcl_b.clas.abap";

    /// A line on `A`: the first one's turn, then two places waiting behind it.
    async fn line_of_three(queues: &ObjectQueues) -> (Turn, Place, Place) {
        let held = queues.enter(A).turn().await;
        (held, queues.enter(A), queues.enter(A))
    }

    #[test]
    fn keys_end_at_the_last_slash() {
        assert_eq!(queue_key(A), "abap:/repotree-v1/ADTLS/Classes/ZCL_A/");
        assert_eq!(queue_key(A), queue_key(A_INCLUDE));
        assert_ne!(queue_key(A), queue_key(B));
        assert_eq!(
            queue_key("abap:/repotree-v1/ADTLS/"),
            "abap:/repotree-v1/ADTLS/"
        );
        assert_eq!(queue_key("no-slash"), "");
        assert_eq!(queue_key(""), "");
    }

    /// Waits (bounded) for a result; `None` means nothing arrived.
    async fn next(rx: &mut mpsc::UnboundedReceiver<u32>) -> Option<u32> {
        tokio::time::timeout(Duration::from_secs(5), rx.recv())
            .await
            .ok()
            .flatten()
    }

    #[tokio::test]
    async fn one_object_runs_its_operations_in_call_order() {
        let queues = ObjectQueues::default();
        let first = queues.enter(A).turn().await;
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut tasks = Vec::new();
        for (i, uri) in [A_INCLUDE, A, A_INCLUDE].into_iter().enumerate() {
            let place = queues.enter(uri);
            let tx = tx.clone();
            tasks.push(tokio::spawn(async move {
                let _turn = place.turn().await;
                let _ = tx.send(i as u32);
            }));
        }
        tokio::task::yield_now().await;
        assert!(
            rx.try_recv().is_err(),
            "nobody runs while the first holds the line"
        );
        drop(first);
        for expected in 0..3 {
            assert_eq!(next(&mut rx).await, Some(expected));
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(queues.busy_keys(), 0, "an idle key is dropped");
    }

    #[tokio::test]
    async fn another_object_does_not_wait() {
        let queues = ObjectQueues::default();
        let _held = queues.enter(A).turn().await;
        let other = tokio::time::timeout(Duration::from_secs(5), queues.enter(B).turn()).await;
        assert!(other.is_ok());
    }

    #[tokio::test]
    async fn a_cancelled_waiter_leaves_the_line() {
        let queues = ObjectQueues::default();
        let (held, cancelled, last) = line_of_three(&queues).await;
        // Cancel while waiting (a timeout or an abort drops the future).
        let gave_up = tokio::time::timeout(Duration::from_millis(10), cancelled.turn()).await;
        assert!(gave_up.is_err());
        drop(held);
        let turn = tokio::time::timeout(Duration::from_secs(5), last.turn()).await;
        assert!(
            turn.is_ok(),
            "the one behind the cancelled waiter gets the turn"
        );
        drop(turn);
        assert_eq!(queues.busy_keys(), 0);
    }

    #[tokio::test]
    async fn a_place_dropped_after_its_grant_passes_the_line_on() {
        let queues = ObjectQueues::default();
        let (held, granted_unused, last) = line_of_three(&queues).await;
        drop(held); // grants `granted_unused`, which never runs
        drop(granted_unused);
        assert!(tokio::time::timeout(Duration::from_secs(5), last.turn())
            .await
            .is_ok());
        assert_eq!(queues.busy_keys(), 0);
        // A place taken on a free line and dropped unused frees it too.
        drop(queues.enter(B));
        assert_eq!(queues.busy_keys(), 0);
    }

    #[tokio::test]
    async fn a_failed_operation_does_not_block_the_next() {
        let queues = ObjectQueues::default();
        let place = queues.enter(A);
        let behind = queues.enter(A);
        let failing = tokio::spawn(async move {
            let _turn = place.turn().await;
            Err::<(), &str>("failed")
        });
        assert!(failing.await.unwrap().is_err());
        assert!(tokio::time::timeout(Duration::from_secs(5), behind.turn())
            .await
            .is_ok());
    }
}
