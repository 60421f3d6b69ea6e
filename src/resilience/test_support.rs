//! Test operations for the retry policies: an operation that counts its runs and answers
//! each run by its number, and the answer "fail the first run, succeed after".

use crate::kernel::error::{Error, Result};
use std::future::{ready, Ready};
use std::sync::atomic::{AtomicU32, Ordering};

/// An operation that counts its runs in `calls` and answers run `n` (from 0) with `answer(n)`.
pub(super) fn counted<'a, T>(
    calls: &'a AtomicU32,
    answer: impl Fn(u32) -> Result<T> + 'a,
) -> impl FnMut() -> Ready<Result<T>> + 'a {
    move || ready(answer(calls.fetch_add(1, Ordering::SeqCst)))
}

/// Answers that fail run 0 with `message` and give `value` from run 1 on.
pub(super) fn failing_first<T: Clone>(
    message: &'static str,
    value: T,
) -> impl Fn(u32) -> Result<T> {
    move |n| {
        if n == 0 {
            Err(Error::new(message))
        } else {
            Ok(value.clone())
        }
    }
}
