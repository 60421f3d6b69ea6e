//! Node on Unix: adt-ls's replies are read on the JS thread. A libuv poll handle watches a
//! dup of the socket; its callback reads what is there, feeds the connection (frames decoded
//! and dispatched right here, with the Tokio runtime entered), then settles the promises that
//! completed in place and runs their continuations, so a sequential call costs no thread
//! hand-off (docs/performance.md). Never under Bun (its libuv symbols abort) nor on Windows;
//! `ADT_LS_NATIVE_JS_THREAD_READS=0` turns it off. Either way the Tokio reader task is used.
//! The handle never holds the event loop open: a pending promise does (the settle pump).
//! Backpressure as on the Tokio reader: reading stops when the connection's backlog is full
//! (after settling and delivering in place, what is still held belongs to server-request
//! handlers or callbacks elsewhere); the poll is stopped then, and a thread-safe call from
//! whoever frees room starts it again ([`crate::bounds::backlog`]).

use super::settle;
use super::uv_poll::{self, UvLoop, UvPoll};
use crate::kernel::host::HostEnv;
use crate::kernel::log;
use crate::lsp::connection::Feeder;
use crate::lsp::ReadHost;
use napi::bindgen_prelude::*;
use napi::sys;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use std::cell::{Cell, RefCell};
use std::io::Read;
use std::os::raw::{c_int, c_void};
use std::os::unix::io::AsRawFd;
use std::os::unix::net::UnixStream;
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The switch: `0` keeps the Tokio reader.
pub const SWITCH: &str = "ADT_LS_NATIVE_JS_THREAD_READS";
/// Bytes read per `read` call.
const READ_CHUNK: usize = 64 * 1024;
/// Reads per callback at most, so a flood cannot starve the loop (libuv calls again).
const READS_PER_WAKEUP: usize = 256;

/// A socket and its feeder on their way to the JS thread; dropped undelivered (the thread
/// is going away), the socket is read by the Tokio reader instead.
struct Attach(Option<(UnixStream, Feeder)>);

impl Drop for Attach {
    fn drop(&mut self) {
        if let Some((socket, feeder)) = self.0.take() {
            feeder.read_on_runtime(socket);
        }
    }
}

type Deliver = ThreadsafeFunction<Attach, (), (), Status, false, true>;
/// Starts reading again for the reader with this id (JS thread).
type Resume = ThreadsafeFunction<u64, (), (), Status, false, true>;

/// The [`ReadHost`] of one driver: hands each new connection to the JS thread.
struct JsThreadReads {
    deliver: Deliver,
}

impl ReadHost for JsThreadReads {
    fn attach(&self, socket: UnixStream, feeder: Feeder) {
        let status = self.deliver.call(
            Attach(Some((socket, feeder))),
            ThreadsafeFunctionCallMode::NonBlocking,
        );
        if status != Status::Ok {
            log::debug(format!(
                "lsp: JS thread unavailable ({status}); reading on a runtime thread"
            ));
        }
    }
}

/// The read host for a driver created now, or `None` for the Tokio reader (Bun, or the
/// switch set to `0`).
pub fn read_host(env: &Env, host: &HostEnv) -> Option<Arc<dyn ReadHost>> {
    if host.var(SWITCH).as_deref() == Some("0") || super::js_engine::is_bun(env) {
        return None;
    }
    match create_deliver(env) {
        Ok(deliver) => Some(Arc::new(JsThreadReads { deliver })),
        Err(e) => {
            log::debug(format!("lsp: no JS-thread reads ({e})"));
            None
        }
    }
}

fn create_deliver(env: &Env) -> Result<Deliver> {
    let resume = Arc::new(create_resume(env)?);
    let noop = env.create_function_from_closure::<(), (), _>("adtLsReads", |_| Ok(()))?;
    noop.build_threadsafe_function::<Attach>()
        .weak::<true>()
        .callee_handled::<false>()
        .build_callback(move |ctx| {
            let mut attach = ctx.value;
            if let Some((socket, feeder)) = attach.0.take() {
                start_reading(&ctx.env, socket, feeder, resume.clone());
            }
            Ok(())
        })
}

fn create_resume(env: &Env) -> Result<Resume> {
    let noop = env.create_function_from_closure::<(), (), _>("adtLsResume", |_| Ok(()))?;
    noop.build_threadsafe_function::<u64>()
        .weak::<true>()
        .callee_handled::<false>()
        .build_callback(|ctx| {
            resume_reading(ctx.value);
            Ok(())
        })
}

/// What a poll handle reads for.
struct Reader {
    /// Names the reader in [`Resume`] calls.
    id: u64,
    /// Stopped because the backlog is full; [`Resume`] starts it again.
    paused: bool,
    resume: Arc<Resume>,
    socket: UnixStream,
    feeder: Option<Feeder>,
    env: sys::napi_env,
    /// The async context and resource the settling callback scope runs in.
    context: sys::napi_async_context,
    resource: sys::napi_ref,
    buf: Vec<u8>,
}

thread_local! {
    /// Open poll handles of this JS thread, closed by [`close_ended`].
    static OPEN: RefCell<Vec<*mut UvPoll>> = const { RefCell::new(Vec::new()) };
    /// The handle whose callback is settling promises (its continuations run JS).
    static ACTIVE: Cell<*mut UvPoll> = const { Cell::new(ptr::null_mut()) };
}

fn start_reading(env: &Env, socket: UnixStream, feeder: Feeder, resume: Arc<Resume>) {
    match open_reader(env, socket, feeder, resume) {
        Ok(()) => log::debug("lsp: reading adt-ls on the JS thread"),
        Err(fallback) => {
            let Fallback(why, socket, feeder) = *fallback;
            log::debug(format!("lsp: {why}; reading on a runtime thread"));
            feeder.read_on_runtime(socket);
        }
    }
}

struct Fallback(&'static str, UnixStream, Feeder);

fn open_reader(
    env: &Env,
    socket: UnixStream,
    feeder: Feeder,
    resume: Arc<Resume>,
) -> std::result::Result<(), Box<Fallback>> {
    let raw = env.raw();
    let mut event_loop: *mut sys::uv_loop_s = ptr::null_mut();
    // SAFETY: `raw` is the env of the current call on the JS thread (the attach callback);
    // `event_loop` is a local the call writes.
    if unsafe { sys::napi_get_uv_event_loop(raw, &mut event_loop) } != sys::Status::napi_ok
        || event_loop.is_null()
    {
        return Err(Box::new(Fallback("no event loop", socket, feeder)));
    }
    let Some((context, resource)) = async_context(env) else {
        return Err(Box::new(Fallback("no async context", socket, feeder)));
    };
    let fd = socket.as_raw_fd();
    static NEXT_ID: AtomicU64 = AtomicU64::new(1);
    let reader = Box::into_raw(Box::new(Reader {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        paused: false,
        resume,
        socket,
        feeder: Some(feeder),
        env: raw,
        context,
        resource,
        buf: vec![0u8; READ_CHUNK],
    }));
    // SAFETY: JS thread; the fd belongs to the reader, which outlives the handle.
    let handle = unsafe {
        uv_poll::open(
            event_loop as *mut UvLoop,
            fd,
            reader as *mut c_void,
            on_readable,
        )
    };
    match handle {
        Some(handle) => {
            OPEN.with(|open| open.borrow_mut().push(handle));
            Ok(())
        }
        None => {
            // SAFETY: not registered anywhere: we own it again.
            let reader = unsafe { Box::from_raw(reader) };
            let Reader { socket, feeder, .. } = *reader;
            release_context(raw, context, resource);
            match feeder {
                Some(feeder) => Err(Box::new(Fallback(
                    "uv_poll refused the socket",
                    socket,
                    feeder,
                ))),
                None => Ok(()),
            }
        }
    }
}

fn async_context(env: &Env) -> Option<(sys::napi_async_context, sys::napi_ref)> {
    let raw = env.raw();
    let mut object = ptr::null_mut();
    let mut name = ptr::null_mut();
    let mut context = ptr::null_mut();
    let mut resource = ptr::null_mut();
    let label = "adtLsRead";
    // SAFETY: `raw` is the env of the current call on the JS thread; each call writes a local;
    // `label` outlives the call that copies it; when the reference fails, the async context made is
    // destroyed before returning.
    unsafe {
        if sys::napi_create_object(raw, &mut object) != sys::Status::napi_ok
            || sys::napi_create_string_utf8(
                raw,
                label.as_ptr().cast(),
                label.len() as isize,
                &mut name,
            ) != sys::Status::napi_ok
            || sys::napi_async_init(raw, object, name, &mut context) != sys::Status::napi_ok
        {
            return None;
        }
        if sys::napi_create_reference(raw, object, 1, &mut resource) != sys::Status::napi_ok {
            sys::napi_async_destroy(raw, context);
            return None;
        }
    }
    Some((context, resource))
}

fn release_context(env: sys::napi_env, context: sys::napi_async_context, resource: sys::napi_ref) {
    // SAFETY: called on the JS thread with the env, async context and reference `async_context`
    // made for one reader, once per reader (by `finish`, or by `open_reader` when the handle was
    // refused).
    unsafe {
        sys::napi_async_destroy(env, context);
        sys::napi_delete_reference(env, resource);
    }
}

/// libuv: the socket is readable (or broke).
// SAFETY: libuv calls this on the JS thread's loop, only for a handle `open_reader` opened, with
// the handle's data its `Reader` (null after `finish`); the reader's env is that thread's env, live
// while its loop runs callbacks.
unsafe extern "C" fn on_readable(handle: *mut UvPoll, status: c_int, _events: c_int) {
    let reader = uv_poll::data(handle) as *mut Reader;
    if reader.is_null() {
        return;
    }
    settle::hold_wakeups();
    // SAFETY: set by open_reader and freed only by finish(); close_ended skips the ACTIVE
    // handle, so a dispose run by a continuation below cannot free it under us.
    let (peer_gone, ended) = read_and_feed(&mut *reader, status);
    let (env, context, resource) = {
        let r = &*reader;
        (r.env, r.context, r.resource)
    };
    ACTIVE.with(|active| active.set(handle));
    settle_in_place(env, context, resource);
    ACTIVE.with(|active| active.set(ptr::null_mut()));
    // SAFETY: as above; a continuation may have disposed the connection meanwhile.
    let reader = &mut *reader;
    let still_open = reader.feeder.as_ref().is_some_and(Feeder::is_open);
    if peer_gone || ended || !still_open {
        if let Some(feeder) = reader.feeder.take() {
            if peer_gone {
                feeder.feed_eof();
            }
        }
        finish(handle);
    } else {
        pause_while_full(handle, reader);
    }
}

/// Stop polling while the backlog is still full after settling in place; whoever frees room
/// asks the JS thread to start again.
// SAFETY: called from `on_readable` with its handle, still open (it was not `finish`ed), and that
// handle's reader, as `uv_poll::pause` requires.
unsafe fn pause_while_full(handle: *mut UvPoll, reader: &mut Reader) {
    let Some(feeder) = reader.feeder.as_ref() else {
        return;
    };
    if feeder.has_room() {
        return;
    }
    uv_poll::pause(handle);
    reader.paused = true;
    let (id, resume) = (reader.id, reader.resume.clone());
    feeder.when_room(Box::new(move || {
        resume.call(id, ThreadsafeFunctionCallMode::NonBlocking);
    }));
}

/// The backlog of reader `id` has room again: poll its socket again (JS thread).
fn resume_reading(id: u64) {
    let handle = OPEN.with(|open| {
        open.borrow().iter().copied().find(|h| {
            // SAFETY: handles in OPEN are live, with a reader (or null) as data.
            let reader = unsafe { uv_poll::data(*h) } as *const Reader;
            // SAFETY: non-null, so the reader of a handle in OPEN, not freed yet (`finish` takes a
            // handle out of OPEN before it frees the reader).
            !reader.is_null() && unsafe { &*reader }.id == id
        })
    });
    let Some(handle) = handle else {
        return;
    };
    // SAFETY: found in OPEN: live, its reader not freed.
    let reader = unsafe { &mut *(uv_poll::data(handle) as *mut Reader) };
    if !reader.paused || !reader.feeder.as_ref().is_some_and(Feeder::is_open) {
        return;
    }
    reader.paused = false;
    // SAFETY: as above; JS thread (a thread-safe function's callback).
    if !unsafe { uv_poll::resume(handle, on_readable) } {
        log::warn("lsp: cannot watch the adt-ls socket again; the connection stays paused");
    }
}

/// Read what the socket has (a bounded number of chunks) and feed it: (the peer is gone,
/// the connection ended).
fn read_and_feed(reader: &mut Reader, status: c_int) -> (bool, bool) {
    let Some(feeder) = reader.feeder.as_mut() else {
        return (false, true);
    };
    if status < 0 {
        return (true, false);
    }
    if !feeder.has_room() {
        // Woken while another bound is still full: read nothing, pause again.
        return (false, false);
    }
    for _ in 0..READS_PER_WAKEUP {
        match (&reader.socket).read(&mut reader.buf) {
            Ok(0) => return (true, false),
            Ok(n) => {
                if !feeder.feed(&reader.buf[..n]) {
                    return (false, true);
                }
                if !feeder.has_room() {
                    break;
                }
                // A short read drained the socket: stop here instead of paying one more
                // `recv` for its `EAGAIN`. libuv polls level-triggered, so bytes that
                // arrive meanwhile (or the peer's EOF) call us again.
                if n < reader.buf.len() {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(_) => return (true, false),
        }
    }
    (false, false)
}

/// Settle what completed during this callback and run the promise continuations (closing
/// the outermost callback scope runs the microtask queue). Without a scope, the settle
/// pump is woken instead.
// SAFETY: called from `on_readable` on the JS thread with its reader's env, async context and
// resource reference (made by `async_context`, not released yet); the handle scope and the callback
// scope opened here are closed before returning, in reverse order.
unsafe fn settle_in_place(
    env: sys::napi_env,
    context: sys::napi_async_context,
    resource_ref: sys::napi_ref,
) {
    let mut handles = ptr::null_mut();
    if sys::napi_open_handle_scope(env, &mut handles) != sys::Status::napi_ok {
        settle::wake_pump();
        return;
    }
    let mut resource = ptr::null_mut();
    let mut scope = ptr::null_mut();
    let scoped = sys::napi_get_reference_value(env, resource_ref, &mut resource)
        == sys::Status::napi_ok
        && sys::napi_open_callback_scope(env, resource, context, &mut scope)
            == sys::Status::napi_ok;
    if scoped {
        settle::drain(&Env::from_raw(env));
        sys::napi_close_callback_scope(env, scope);
    } else {
        settle::wake_pump();
    }
    sys::napi_close_handle_scope(env, handles);
}

/// Stop and close `handle` and free its reader (JS thread).
// SAFETY: callers pass a handle of OPEN (open, with its reader or null as data); it leaves OPEN and
// loses its data before it is closed, once; the reader is freed once, here, so neither a later
// callback nor a lookup in OPEN can reach it.
unsafe fn finish(handle: *mut UvPoll) {
    OPEN.with(|open| open.borrow_mut().retain(|h| *h != handle));
    let reader = uv_poll::data(handle) as *mut Reader;
    *(handle as *mut *mut c_void) = ptr::null_mut();
    uv_poll::close(handle);
    if !reader.is_null() {
        let reader = Box::from_raw(reader);
        release_context(reader.env, reader.context, reader.resource);
    }
}

/// Close the poll handles of connections that ended (a dispose): their sockets are not
/// watched any longer (JS thread). The handle whose callback is running closes itself when
/// its callback ends.
pub fn close_ended() {
    let active = ACTIVE.with(Cell::get);
    let ended: Vec<*mut UvPoll> = OPEN.with(|open| {
        open.borrow()
            .iter()
            .copied()
            .filter(|h| *h != active)
            .filter(|h| {
                // SAFETY: handles in OPEN are live, with a reader as data.
                let reader = unsafe { uv_poll::data(*h) } as *const Reader;
                reader.is_null()
                    // SAFETY: non-null, so the reader of a handle in OPEN, not freed yet.
                    || unsafe { &*reader }
                        .feeder
                        .as_ref()
                        .is_none_or(|f| !f.is_open())
            })
            .collect()
    });
    for handle in ended {
        // SAFETY: taken from OPEN (live); finish removes it from there.
        unsafe { finish(handle) };
    }
}
