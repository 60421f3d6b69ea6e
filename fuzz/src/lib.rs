//! Shared helpers of the fuzz targets: a counting global allocator (so a target can assert
//! that a parser's memory stays proportional to the bytes it was given, whatever lengths
//! those bytes claim) and deterministic ways to cut one input into chunks.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live heap bytes and their peak since the last [`reset_peak`].
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Run `f` and return its result with the peak of heap bytes it added on top of what was
/// live when it started.
pub fn peak_heap<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    (out, peak)
}

/// The memory a parser may use for `input_len` bytes: a small constant plus a multiple of
/// the input (buffers double when they grow; decoded copies sit beside the input).
pub fn heap_budget(input_len: usize) -> usize {
    64 * 1024 + 8 * input_len
}

/// Deterministic pseudo-random chunk lengths (1..=max) derived from the input itself, so a
/// crash reproduces from the saved input alone.
pub fn random_cuts(data: &[u8], max: usize) -> Vec<&[u8]> {
    // FNV-1a of the input seeds a splitmix64 stream.
    let mut state = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let n = (next() as usize % max.max(1) + 1).min(rest.len());
        let (head, tail) = rest.split_at(n);
        out.push(head);
        rest = tail;
    }
    out
}

/// The ways every chunking target cuts its input: whole, byte by byte (for inputs small
/// enough that this stays fast), and pseudo-random cuts of up to 7 and up to 300 bytes.
pub fn chunkings(data: &[u8]) -> Vec<Vec<&[u8]>> {
    let mut ways = vec![vec![data]];
    if data.len() <= 4096 {
        ways.push(data.chunks(1).collect());
    }
    ways.push(random_cuts(data, 7));
    ways.push(random_cuts(data, 300));
    ways
}
