//! Windows: the security attributes of adt-ls's named pipe: a protected DACL
//! granting access to the current user only (`D:P(A;;GA;;;<user SID>)`), so another user
//! on the machine cannot connect to or squat on the pipe. Remote clients are refused by the
//! pipe flags (`PIPE_REJECT_REMOTE_CLIENTS`, set in `pipe`). Written on windows-sys because
//! tokio's `ServerOptions` takes only raw `SECURITY_ATTRIBUTES`.

use crate::kernel::error::{Error, Result};
use windows_sys::Win32::Foundation::{CloseHandle, LocalFree, HANDLE};
use windows_sys::Win32::Security::Authorization::{
    ConvertSidToStringSidW, ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
};
use windows_sys::Win32::Security::{
    GetTokenInformation, TokenUser, PSECURITY_DESCRIPTOR, SECURITY_ATTRIBUTES, TOKEN_QUERY,
    TOKEN_USER,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

/// A self-relative security descriptor (freed on drop) and attributes pointing at it.
pub(crate) struct PipeSecurity {
    descriptor: PSECURITY_DESCRIPTOR,
    attributes: SECURITY_ATTRIBUTES,
}

// SAFETY: the descriptor is owned memory LocalAlloc'd by Windows, never changed after it is
// made, and `LocalFree` (in `Drop`) may free it from any thread; the attributes only point
// at it.
unsafe impl Send for PipeSecurity {}
// SAFETY: `&PipeSecurity` gives no way to change the descriptor or the attributes (`as_raw` takes
// `&mut self`), and Windows only reads the descriptor it allocated, so shared references on several
// threads read immutable memory.
unsafe impl Sync for PipeSecurity {}

impl PipeSecurity {
    /// Attributes for the current user only.
    pub(crate) fn current_user_only() -> Result<PipeSecurity> {
        let sid = current_user_sid()?;
        Self::from_sddl(&format!("D:P(A;;GA;;;{sid})"))
    }

    /// The SDDL text as used (for tests and logs; holds no secret).
    fn from_sddl(sddl: &str) -> Result<PipeSecurity> {
        let wide: Vec<u16> = sddl.encode_utf16().chain(std::iter::once(0)).collect();
        let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        // SAFETY: a NUL-terminated wide string; Windows allocates the descriptor.
        let ok = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                wide.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                std::ptr::null_mut(),
            )
        };
        if ok == 0 || descriptor.is_null() {
            return Err(os_error("pipe security descriptor"));
        }
        Ok(PipeSecurity {
            descriptor,
            attributes: SECURITY_ATTRIBUTES {
                nLength: std::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
                lpSecurityDescriptor: descriptor,
                bInheritHandle: 0,
            },
        })
    }

    /// For `ServerOptions::create_with_security_attributes_raw`; valid while `self` lives.
    pub(crate) fn as_raw(&mut self) -> *mut std::ffi::c_void {
        (&raw mut self.attributes).cast()
    }
}

impl Drop for PipeSecurity {
    fn drop(&mut self) {
        // SAFETY: allocated by ConvertStringSecurityDescriptorToSecurityDescriptorW.
        unsafe {
            LocalFree(self.descriptor);
        }
    }
}

/// The current process user's SID as `S-1-5-21-…`.
fn current_user_sid() -> Result<String> {
    // SAFETY: token query on our own process; buffers sized by the first call; every
    // handle and Windows allocation is released before returning.
    unsafe {
        let mut token: HANDLE = std::ptr::null_mut();
        if OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) == 0 {
            return Err(os_error("OpenProcessToken"));
        }
        let mut len = 0u32;
        GetTokenInformation(token, TokenUser, std::ptr::null_mut(), 0, &mut len);
        // u64 storage keeps TOKEN_USER aligned.
        let mut buf = vec![0u64; (len as usize).div_ceil(8).max(1)];
        let ok = GetTokenInformation(token, TokenUser, buf.as_mut_ptr().cast(), len, &mut len);
        CloseHandle(token);
        if ok == 0 {
            return Err(os_error("GetTokenInformation"));
        }
        let user = &*(buf.as_ptr().cast::<TOKEN_USER>());
        let mut text: *mut u16 = std::ptr::null_mut();
        if ConvertSidToStringSidW(user.User.Sid, &mut text) == 0 || text.is_null() {
            return Err(os_error("ConvertSidToStringSidW"));
        }
        let mut n = 0usize;
        while *text.add(n) != 0 {
            n += 1;
        }
        let sid = String::from_utf16_lossy(std::slice::from_raw_parts(text, n));
        LocalFree(text.cast());
        Ok(sid)
    }
}

fn os_error(what: &str) -> Error {
    Error::from(std::io::Error::last_os_error()).prefixed(&format!("{what}: "))
}
