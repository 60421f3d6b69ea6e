//! libuv poll handles (`uv_poll_t`), declared by hand: neither napi-rs nor any crate we use
//! exposes libuv, and Node-API only hands out the loop (`napi_get_uv_event_loop`). Node
//! exports these symbols from its binary (resolved at load time: `-undefined dynamic_lookup`
//! on macOS); Bun exports them as aborting stubs, so callers must never get here under Bun.
//! Unix only. Handle memory is `uv_handle_size(UV_POLL)` bytes, freed after `uv_close`.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::os::raw::{c_int, c_void};
use std::os::unix::io::RawFd;

/// `uv_loop_t`, opaque.
#[repr(C)]
pub struct UvLoop {
    _opaque: [u8; 0],
}

/// `uv_poll_t`, opaque except its first field (`void* data`, common to every handle).
#[repr(C)]
pub struct UvPoll {
    _opaque: [u8; 0],
}

/// `uv_handle_type` `UV_POLL`.
const UV_POLL: c_int = 8;
/// `uv_poll_event` `UV_READABLE`.
const UV_READABLE: c_int = 1;
/// Alignment we allocate handles with (at least that of any libuv handle field).
const HANDLE_ALIGN: usize = 16;

pub type PollCallback = unsafe extern "C" fn(handle: *mut UvPoll, status: c_int, events: c_int);
type CloseCallback = unsafe extern "C" fn(handle: *mut UvPoll);

extern "C" {
    fn uv_handle_size(kind: c_int) -> usize;
    fn uv_poll_init(event_loop: *mut UvLoop, handle: *mut UvPoll, fd: c_int) -> c_int;
    fn uv_poll_start(handle: *mut UvPoll, events: c_int, callback: PollCallback) -> c_int;
    fn uv_poll_stop(handle: *mut UvPoll) -> c_int;
    fn uv_close(handle: *mut UvPoll, callback: Option<CloseCallback>);
    fn uv_unref(handle: *mut UvPoll);
}

fn layout() -> Option<Layout> {
    // SAFETY: a pure function of a constant.
    let size = unsafe { uv_handle_size(UV_POLL) };
    Layout::from_size_align(size.max(1), HANDLE_ALIGN).ok()
}

/// Watch `fd` for readability on `event_loop`, calling `on_readable` with `data` set on the
/// handle; the handle does not keep the loop alive (`uv_unref`). `None` when libuv refused.
///
/// # Safety
/// JS thread only; `event_loop` is Node's loop; `fd` stays open until [`close`] completes.
pub unsafe fn open(
    event_loop: *mut UvLoop,
    fd: RawFd,
    data: *mut c_void,
    on_readable: PollCallback,
) -> Option<*mut UvPoll> {
    let layout = layout()?;
    let handle = alloc_zeroed(layout) as *mut UvPoll;
    if handle.is_null() {
        return None;
    }
    if uv_poll_init(event_loop, handle, fd) != 0 {
        dealloc(handle as *mut u8, layout);
        return None;
    }
    *(handle as *mut *mut c_void) = data;
    uv_unref(handle);
    if uv_poll_start(handle, UV_READABLE, on_readable) != 0 {
        close(handle);
        return None;
    }
    Some(handle)
}

/// The `data` given to [`open`].
///
/// # Safety
/// `handle` comes from [`open`] and is not freed yet.
pub unsafe fn data(handle: *mut UvPoll) -> *mut c_void {
    *(handle as *mut *mut c_void)
}

/// Stop watching and close the handle; its memory is freed once libuv is done with it. The
/// caller frees what `data` points to first.
///
/// # Safety
/// `handle` comes from [`open`]; JS thread only; at most once.
pub unsafe fn close(handle: *mut UvPoll) {
    uv_poll_stop(handle);
    uv_close(handle, Some(free_handle));
}

unsafe extern "C" fn free_handle(handle: *mut UvPoll) {
    if let Some(layout) = layout() {
        dealloc(handle as *mut u8, layout);
    }
}
