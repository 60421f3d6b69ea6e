//! Windows: every adt-ls child runs in its own Job Object with
//! `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`. Terminating the job kills the whole tree (the
//! `adt-lsc.exe` launcher and the JVM it starts), also where `taskkill /T` is unavailable
//! (Wine rejects `/T`); and since Windows closes the job handle when Node dies, the tree dies
//! with Node even on a crash: the Windows counterpart of Linux's `PR_SET_PDEATHSIG`.
//! Written on windows-sys because neither std nor tokio exposes Job Objects.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{OpenProcess, PROCESS_SET_QUOTA, PROCESS_TERMINATE};

/// An owned job handle; closing it kills what is still in the job.
struct Job(HANDLE);

// SAFETY: a kernel handle is usable from any thread; it is only closed once, on drop.
unsafe impl Send for Job {}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle came from CreateJobObjectW and is closed exactly once.
        unsafe {
            CloseHandle(self.0);
        }
    }
}

fn jobs() -> &'static Mutex<HashMap<u32, Job>> {
    static JOBS: OnceLock<Mutex<HashMap<u32, Job>>> = OnceLock::new();
    JOBS.get_or_init(Default::default)
}

/// Put the just-spawned process `pid` into a new kill-on-close job. False when that could
/// not be done (then only `taskkill` reaches its tree).
pub(crate) fn adopt(pid: u32) -> bool {
    let Some(job) = new_kill_on_close_job() else {
        return false;
    };
    // SAFETY: plain Win32 calls on a pid we just spawned; the process handle is closed here.
    let assigned = unsafe {
        let process = OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, 0, pid);
        if process.is_null() {
            return false;
        }
        let ok = AssignProcessToJobObject(job.0, process) != 0;
        CloseHandle(process);
        ok
    };
    if !assigned {
        return false;
    }
    match jobs().lock() {
        Ok(mut map) => {
            map.insert(pid, job);
            true
        }
        Err(_) => false,
    }
}

fn new_kill_on_close_job() -> Option<Job> {
    // SAFETY: CreateJobObjectW with no attributes and no name; the struct is plain data.
    unsafe {
        let handle = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if handle.is_null() {
            return None;
        }
        let job = Job(handle);
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let set = SetInformationJobObject(
            job.0,
            JobObjectExtendedLimitInformation,
            (&raw const info).cast(),
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        );
        (set != 0).then_some(job)
    }
}

/// Kill the tree of `pid` through its job. False when it has none. Never blocks on the
/// registry lock (it may run from an exit handler).
pub(crate) fn terminate(pid: u32) -> bool {
    let job = match jobs().try_lock() {
        Ok(mut map) => map.remove(&pid),
        Err(_) => None,
    };
    match job {
        // SAFETY: a live job handle we own; dropping it afterwards closes it.
        Some(job) => unsafe { TerminateJobObject(job.0, 1) != 0 },
        None => false,
    }
}

/// The leader `pid` has exited: close its job, which kills anything it left running.
pub(crate) fn release(pid: u32) {
    let job = jobs().lock().ok().and_then(|mut map| map.remove(&pid));
    drop(job);
}
