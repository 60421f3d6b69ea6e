//! libuv poll handles (`uv_poll_t`): neither napi-rs nor any crate we use exposes libuv, and
//! Node-API only hands out the loop (`napi_get_uv_event_loop`). The functions are looked up in
//! the running process with `dlsym` when first needed, not linked: Node exports them from its
//! binary, while a binary without libuv (a fuzz or test executable linking this crate) must
//! still link, and a host without them makes [`open`] return `None` (the caller then keeps the
//! Tokio reader). Bun exports them as aborting stubs, so callers must never get here under Bun.
//! Unix only. Handle memory is `uv_handle_size(UV_POLL)` bytes, freed after `uv_close`.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ffi::CStr;
use std::os::raw::{c_int, c_void};
use std::os::unix::io::RawFd;
use std::sync::OnceLock;

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

type HandleSizeFn = unsafe extern "C" fn(kind: c_int) -> usize;
type PollInitFn = unsafe extern "C" fn(*mut UvLoop, *mut UvPoll, c_int) -> c_int;
type PollStartFn = unsafe extern "C" fn(*mut UvPoll, c_int, PollCallback) -> c_int;
type PollStopFn = unsafe extern "C" fn(*mut UvPoll) -> c_int;
type CloseFn = unsafe extern "C" fn(*mut UvPoll, Option<CloseCallback>);
type UnrefFn = unsafe extern "C" fn(*mut UvPoll);

/// The libuv functions used here, found in the running process.
struct Uv {
    handle_size: HandleSizeFn,
    poll_init: PollInitFn,
    poll_start: PollStartFn,
    poll_stop: PollStopFn,
    close: CloseFn,
    unref: UnrefFn,
}

/// The address of `name` in the process, if some loaded image exports it.
fn symbol(name: &CStr) -> Option<*mut c_void> {
    // SAFETY: a lookup by a NUL-terminated name; nothing is called.
    let address = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    (!address.is_null()).then_some(address)
}

/// Every function or none (resolved once).
fn uv() -> Option<&'static Uv> {
    static UV: OnceLock<Option<Uv>> = OnceLock::new();
    UV.get_or_init(|| {
        // SAFETY: each address is the exported libuv function of that name, whose C signature
        // is the one written in `Uv` (libuv 1.x, stable ABI).
        unsafe {
            Some(Uv {
                handle_size: std::mem::transmute::<*mut c_void, HandleSizeFn>(symbol(
                    c"uv_handle_size",
                )?),
                poll_init: std::mem::transmute::<*mut c_void, PollInitFn>(symbol(c"uv_poll_init")?),
                poll_start: std::mem::transmute::<*mut c_void, PollStartFn>(symbol(
                    c"uv_poll_start",
                )?),
                poll_stop: std::mem::transmute::<*mut c_void, PollStopFn>(symbol(c"uv_poll_stop")?),
                close: std::mem::transmute::<*mut c_void, CloseFn>(symbol(c"uv_close")?),
                unref: std::mem::transmute::<*mut c_void, UnrefFn>(symbol(c"uv_unref")?),
            })
        }
    })
    .as_ref()
}

fn layout(uv: &Uv) -> Option<Layout> {
    // SAFETY: a pure function of a constant.
    let size = unsafe { (uv.handle_size)(UV_POLL) };
    Layout::from_size_align(size.max(1), HANDLE_ALIGN).ok()
}

/// Watch `fd` for readability on `event_loop`, calling `on_readable` with `data` set on the
/// handle; the handle does not keep the loop alive (`uv_unref`). `None` when libuv refused.
///
/// # Safety
/// JS thread only; `event_loop` is Node's loop; `fd` stays open until [`close`] completes.
// SAFETY: with the contract above: the handle is `layout` bytes, zeroed and aligned, and
// `uv_poll_init` initialises it before any other use (a failed init leaves libuv holding nothing,
// so it is freed at once); `data` goes in its first field, `void* data`; a failed start closes it
// through `close`, which frees it once libuv is done.
pub unsafe fn open(
    event_loop: *mut UvLoop,
    fd: RawFd,
    data: *mut c_void,
    on_readable: PollCallback,
) -> Option<*mut UvPoll> {
    let uv = uv()?;
    let layout = layout(uv)?;
    let handle = alloc_zeroed(layout) as *mut UvPoll;
    if handle.is_null() {
        return None;
    }
    if (uv.poll_init)(event_loop, handle, fd) != 0 {
        dealloc(handle as *mut u8, layout);
        return None;
    }
    *(handle as *mut *mut c_void) = data;
    (uv.unref)(handle);
    if (uv.poll_start)(handle, UV_READABLE, on_readable) != 0 {
        close(handle);
        return None;
    }
    Some(handle)
}

/// Stop watching for now; [`resume`] starts again (the handle stays open).
///
/// # Safety
/// `handle` comes from [`open`] and is not closed; JS thread only.
// SAFETY: `handle` is open (the contract), which `uv_poll_stop` accepts.
pub unsafe fn pause(handle: *mut UvPoll) {
    if let Some(uv) = uv() {
        (uv.poll_stop)(handle);
    }
}

/// Watch again after [`pause`]; false when libuv refused.
///
/// # Safety
/// As for [`pause`].
// SAFETY: `handle` is open (the contract) and `on_readable` has the C signature libuv calls it
// with.
pub unsafe fn resume(handle: *mut UvPoll, on_readable: PollCallback) -> bool {
    uv().is_some_and(|uv| (uv.poll_start)(handle, UV_READABLE, on_readable) == 0)
}

/// The `data` given to [`open`].
///
/// # Safety
/// `handle` comes from [`open`] and is not freed yet.
// SAFETY: `handle` points to a handle `open` initialised and not yet freed (the contract), whose
// first field is `void* data`.
pub unsafe fn data(handle: *mut UvPoll) -> *mut c_void {
    *(handle as *mut *mut c_void)
}

/// Stop watching and close the handle; its memory is freed once libuv is done with it. The
/// caller frees what `data` points to first.
///
/// # Safety
/// `handle` comes from [`open`]; JS thread only; at most once.
// SAFETY: `handle` is open and closed at most once (the contract); libuv calls `free_handle` when
// it is done with it, which frees the memory.
pub unsafe fn close(handle: *mut UvPoll) {
    // `open` succeeded, so the functions were found.
    if let Some(uv) = uv() {
        (uv.poll_stop)(handle);
        (uv.close)(handle, Some(free_handle));
    }
}

// SAFETY: libuv calls this once per handle, after `uv_close`, with a handle `open` allocated with
// the same `layout`; nothing uses the handle afterwards.
unsafe extern "C" fn free_handle(handle: *mut UvPoll) {
    if let Some(layout) = uv().and_then(layout) {
        dealloc(handle as *mut u8, layout);
    }
}
