//! A bounded reader of an ELF file's dynamic section: its class and machine, and the
//! `DT_NEEDED`, `DT_SONAME`, `DT_RPATH` and `DT_RUNPATH` entries the dynamic linker acts on.
//! It reads only the header, the program headers, `PT_DYNAMIC` and the few strings those
//! entries name, each read capped, so a large `libjvm.so` or a hostile file costs a few
//! kilobytes. Written by hand instead of with `object`/`goblin`: both parse from a slice of
//! the whole file, and this needs only four entry kinds.

use std::io::{self, Read, Seek, SeekFrom};

const MAX_PHDRS: usize = 512;
const MAX_DYNAMIC_BYTES: u64 = 256 * 1024;
const MAX_STRING: usize = 4096;
const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const DT_NEEDED: u64 = 1;
const DT_STRTAB: u64 = 5;
const DT_SONAME: u64 = 14;
const DT_RPATH: u64 = 15;
const DT_RUNPATH: u64 = 29;

/// Random access to a file's bytes.
pub(crate) trait ReadAt {
    /// Fill as much of `buf` as the source holds at `offset`; returns the bytes read.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize>;
}

impl ReadAt for [u8] {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

impl ReadAt for std::fs::File {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let mut file = self;
        file.seek(SeekFrom::Start(offset))?;
        let mut filled = 0;
        while filled < buf.len() {
            match file.read(&mut buf[filled..])? {
                0 => break,
                n => filled += n,
            }
        }
        Ok(filled)
    }
}

/// What the dynamic linker reads from one ELF object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DynamicInfo {
    /// 32 or 64.
    pub bits: u8,
    /// `e_machine` (62 x86-64, 183 AArch64).
    pub machine: u16,
    pub needed: Vec<String>,
    pub soname: Option<String>,
    pub rpath: Option<String>,
    pub runpath: Option<String>,
}

/// Why a file could not be read as ELF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ElfError {
    /// Not an ELF file at all (a script, a text file).
    NotElf,
    /// An ELF file whose structures point outside it or exceed the bounds.
    Malformed(&'static str),
    Io(String),
}

impl std::fmt::Display for ElfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ElfError::NotElf => f.write_str("not an ELF file"),
            ElfError::Malformed(what) => write!(f, "malformed ELF file: {what}"),
            ElfError::Io(e) => f.write_str(e),
        }
    }
}

struct Layout {
    bits: u8,
    big_endian: bool,
}

impl Layout {
    fn uint(&self, b: &[u8], off: usize, size: usize) -> Result<u64, ElfError> {
        let s = b
            .get(off..off + size)
            .ok_or(ElfError::Malformed("truncated"))?;
        let mut v = 0u64;
        for i in 0..size {
            let byte = if self.big_endian {
                s[i]
            } else {
                s[size - 1 - i]
            };
            v = (v << 8) | u64::from(byte);
        }
        Ok(v)
    }
    /// An address-sized field (4 or 8 bytes).
    fn word(&self, b: &[u8], off: usize) -> Result<u64, ElfError> {
        self.uint(b, off, usize::from(self.bits / 8))
    }
}

fn read_exact(src: &(impl ReadAt + ?Sized), offset: u64, len: usize) -> Result<Vec<u8>, ElfError> {
    let mut buf = vec![0u8; len];
    let n = src
        .read_at(offset, &mut buf)
        .map_err(|e| ElfError::Io(e.to_string()))?;
    if n < len {
        return Err(ElfError::Malformed("truncated"));
    }
    Ok(buf)
}

/// The ELF class and machine of `src`, from its header only.
pub(crate) fn identify(src: &(impl ReadAt + ?Sized)) -> Result<(u8, u16), ElfError> {
    let (layout, header) = header(src)?;
    Ok((layout.bits, layout.uint(&header, 0x12, 2)? as u16))
}

fn header(src: &(impl ReadAt + ?Sized)) -> Result<(Layout, Vec<u8>), ElfError> {
    let mut head = [0u8; 64];
    let n = src
        .read_at(0, &mut head)
        .map_err(|e| ElfError::Io(e.to_string()))?;
    if n < 20 || head[..4] != *b"\x7fELF" {
        return Err(ElfError::NotElf);
    }
    let bits = match head[4] {
        1 => 32,
        2 => 64,
        _ => return Err(ElfError::Malformed("unknown ELF class")),
    };
    let big_endian = match head[5] {
        1 => false,
        2 => true,
        _ => return Err(ElfError::Malformed("unknown ELF data encoding")),
    };
    let size = if bits == 64 { 64 } else { 52 };
    if n < size {
        return Err(ElfError::Malformed("truncated"));
    }
    Ok((Layout { bits, big_endian }, head[..size].to_vec()))
}

/// A program header's type, file offset, virtual address and file size.
struct Segment {
    kind: u32,
    offset: u64,
    vaddr: u64,
    filesz: u64,
}

fn segments(src: &(impl ReadAt + ?Sized), l: &Layout, h: &[u8]) -> Result<Vec<Segment>, ElfError> {
    let (phoff, entsize, num) = if l.bits == 64 {
        (l.word(h, 0x20)?, l.uint(h, 0x36, 2)?, l.uint(h, 0x38, 2)?)
    } else {
        (l.word(h, 0x1c)?, l.uint(h, 0x2a, 2)?, l.uint(h, 0x2c, 2)?)
    };
    let (entsize, num) = (entsize as usize, num as usize);
    let min = if l.bits == 64 { 56 } else { 32 };
    if num == 0 {
        return Ok(Vec::new());
    }
    if num > MAX_PHDRS || entsize < min || entsize > 256 {
        return Err(ElfError::Malformed("program header table out of bounds"));
    }
    let table = read_exact(src, phoff, entsize * num)?;
    (0..num)
        .map(|i| {
            let p = &table[i * entsize..(i + 1) * entsize];
            let kind = l.uint(p, 0, 4)? as u32;
            Ok(if l.bits == 64 {
                Segment {
                    kind,
                    offset: l.word(p, 8)?,
                    vaddr: l.word(p, 16)?,
                    filesz: l.word(p, 32)?,
                }
            } else {
                Segment {
                    kind,
                    offset: l.word(p, 4)?,
                    vaddr: l.word(p, 8)?,
                    filesz: l.word(p, 16)?,
                }
            })
        })
        .collect()
}

/// The file offset of virtual address `vaddr`, through the `PT_LOAD` segment holding it.
fn file_offset(segs: &[Segment], vaddr: u64) -> Option<u64> {
    segs.iter()
        .filter(|s| s.kind == PT_LOAD)
        .find(|s| vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz)
        .and_then(|s| s.offset.checked_add(vaddr - s.vaddr))
}

fn c_string(src: &(impl ReadAt + ?Sized), offset: u64) -> Result<String, ElfError> {
    let mut buf = vec![0u8; MAX_STRING];
    let n = src
        .read_at(offset, &mut buf)
        .map_err(|e| ElfError::Io(e.to_string()))?;
    let end = buf[..n]
        .iter()
        .position(|&b| b == 0)
        .ok_or(ElfError::Malformed(
            "dynamic string unterminated or too long",
        ))?;
    Ok(String::from_utf8_lossy(&buf[..end]).into_owned())
}

/// Read the dynamic section of `src`. A file without `PT_DYNAMIC` (static) needs nothing.
pub(crate) fn read_dynamic(src: &(impl ReadAt + ?Sized)) -> Result<DynamicInfo, ElfError> {
    let (l, h) = header(src)?;
    let mut info = DynamicInfo {
        bits: l.bits,
        machine: l.uint(&h, 0x12, 2)? as u16,
        ..Default::default()
    };
    let segs = segments(src, &l, &h)?;
    let Some(dynamic) = segs.iter().find(|s| s.kind == PT_DYNAMIC) else {
        return Ok(info);
    };
    if dynamic.filesz > MAX_DYNAMIC_BYTES {
        return Err(ElfError::Malformed("dynamic section too large"));
    }
    let bytes = read_exact(src, dynamic.offset, dynamic.filesz as usize)?;
    let entry = usize::from(l.bits / 4);
    let mut strtab = None;
    let mut refs: Vec<(u64, u64)> = Vec::new();
    for e in bytes.chunks_exact(entry) {
        let (tag, val) = (l.word(e, 0)?, l.word(e, entry / 2)?);
        match tag {
            0 => break,
            DT_STRTAB => strtab = Some(val),
            DT_NEEDED | DT_SONAME | DT_RPATH | DT_RUNPATH => refs.push((tag, val)),
            _ => {}
        }
    }
    if refs.is_empty() {
        return Ok(info);
    }
    let base = strtab
        .and_then(|a| file_offset(&segs, a))
        .ok_or(ElfError::Malformed("DT_STRTAB outside the loaded segments"))?;
    for (tag, val) in refs {
        let text = c_string(
            src,
            base.checked_add(val)
                .ok_or(ElfError::Malformed("string offset"))?,
        )?;
        match tag {
            DT_NEEDED => info.needed.push(text),
            DT_SONAME => info.soname = Some(text),
            DT_RPATH => info.rpath = Some(text),
            _ => info.runpath = Some(text),
        }
    }
    Ok(info)
}

#[cfg(test)]
pub(crate) mod testing {
    //! Minimal ELF objects for the tests: one `PT_LOAD` over the whole file at address 0, a
    //! `PT_DYNAMIC`, the dynamic entries and their string table.

    /// What a test object needs.
    #[derive(Default, Clone)]
    pub(crate) struct Spec<'a> {
        pub needed: Vec<&'a str>,
        pub soname: Option<&'a str>,
        pub rpath: Option<&'a str>,
        pub runpath: Option<&'a str>,
        /// Defaults to 62 (x86-64).
        pub machine: Option<u16>,
    }

    /// An ELF64 little-endian shared object.
    pub(crate) fn elf64(spec: &Spec) -> Vec<u8> {
        let mut strtab = vec![0u8];
        let mut string = |s: &str| {
            let at = strtab.len() as u64;
            strtab.extend_from_slice(s.as_bytes());
            strtab.push(0);
            at
        };
        let mut dynamic: Vec<(u64, u64)> = spec.needed.iter().map(|n| (1, string(n))).collect();
        for (tag, value) in [(14, spec.soname), (15, spec.rpath), (29, spec.runpath)] {
            if let Some(v) = value {
                dynamic.push((tag, string(v)));
            }
        }
        let dyn_off = 64 + 2 * 56;
        let str_off = dyn_off + (dynamic.len() + 2) * 16;
        dynamic.push((5, str_off as u64));
        dynamic.push((0, 0));
        let total = (str_off + strtab.len()) as u64;
        let mut out = vec![0u8; 64];
        out[..4].copy_from_slice(b"\x7fELF");
        out[4] = 2;
        out[5] = 1;
        out[6] = 1;
        out[16..18].copy_from_slice(&3u16.to_le_bytes());
        out[18..20].copy_from_slice(&spec.machine.unwrap_or(62).to_le_bytes());
        out[32..40].copy_from_slice(&64u64.to_le_bytes());
        out[54..56].copy_from_slice(&56u16.to_le_bytes());
        out[56..58].copy_from_slice(&2u16.to_le_bytes());
        let phdr = |kind: u32, off: u64, size: u64| {
            let mut p = vec![0u8; 56];
            p[..4].copy_from_slice(&kind.to_le_bytes());
            p[8..16].copy_from_slice(&off.to_le_bytes());
            p[16..24].copy_from_slice(&off.to_le_bytes());
            p[32..40].copy_from_slice(&size.to_le_bytes());
            p[40..48].copy_from_slice(&size.to_le_bytes());
            p
        };
        out.extend(phdr(1, 0, total));
        out.extend(phdr(2, dyn_off as u64, (dynamic.len() * 16) as u64));
        for (tag, value) in dynamic {
            out.extend_from_slice(&tag.to_le_bytes());
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend(strtab);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{elf64, Spec};
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_needed_soname_rpath_runpath() {
        let bytes = elf64(&Spec {
            needed: vec!["libc.so.6", "libgtk-3.so.0"],
            soname: Some("libswt.so"),
            rpath: Some("$ORIGIN/lib"),
            runpath: Some("/opt/x:$ORIGIN"),
            machine: None,
        });
        let info = read_dynamic(&bytes[..]).unwrap();
        assert_eq!(info.bits, 64);
        assert_eq!(info.machine, 62);
        assert_eq!(info.needed, ["libc.so.6", "libgtk-3.so.0"]);
        assert_eq!(info.soname.as_deref(), Some("libswt.so"));
        assert_eq!(info.rpath.as_deref(), Some("$ORIGIN/lib"));
        assert_eq!(info.runpath.as_deref(), Some("/opt/x:$ORIGIN"));
        assert_eq!(identify(&bytes[..]).unwrap(), (64, 62));
    }

    #[test]
    fn scripts_and_garbage_are_not_elf_and_truncation_is_malformed() {
        assert_eq!(
            read_dynamic(&b"#!/bin/sh\nexec node x\n"[..]),
            Err(ElfError::NotElf)
        );
        assert_eq!(read_dynamic(&b""[..]), Err(ElfError::NotElf));
        let bytes = elf64(&Spec {
            needed: vec!["libz.so.1"],
            ..Default::default()
        });
        for cut in [30, 70, 150, bytes.len() - 3] {
            assert!(
                matches!(read_dynamic(&bytes[..cut]), Err(ElfError::Malformed(_))),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn reads_this_machines_own_binaries() {
        // The test executable itself is a dynamically linked ELF on Linux.
        if !cfg!(target_os = "linux") {
            return crate::kernel::test_skip::skip("ELF: Linux only");
        }
        let exe = std::fs::File::open(std::env::current_exe().unwrap()).unwrap();
        let info = read_dynamic(&exe).unwrap();
        assert!(
            info.needed.iter().any(|n| n.starts_with("libc.so")),
            "{:?}",
            info.needed
        );
        assert_eq!(info.bits, 64);
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = read_dynamic(&bytes[..]);
            let _ = identify(&bytes[..]);
        }

        #[test]
        fn mutated_objects_never_panic(pos in 0usize..400, value in any::<u8>(), cut in 0usize..400) {
            let mut bytes = elf64(&Spec { needed: vec!["libX11.so.6", "libc.so.6"], runpath: Some("$ORIGIN"), ..Default::default() });
            let pos = pos % bytes.len();
            bytes[pos] = value;
            bytes.truncate(bytes.len() - cut.min(bytes.len()));
            let _ = read_dynamic(&bytes[..]);
        }
    }
}
