// Test helper (not shipped): the symbol versions an ELF64 little-endian object needs from its
// libraries, read from its SHT_GNU_verneed section (what `objdump -T` shows as GLIBC_2.x).
// Bounded by the file: every offset is checked against its length.

const SHT_GNU_VERNEED = 0x6ffffffe;

/** `[{ file, version }]` for every needed version, e.g. `{ file: 'libc.so.6', version: 'GLIBC_2.17' }`. */
export function neededVersions(buf) {
  if (buf.length < 64 || buf.readUInt32BE(0) !== 0x7f454c46) throw new Error('not an ELF file');
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error('not a 64-bit little-endian ELF file');
  const at = (off, len) => {
    if (off < 0 || off + len > buf.length) throw new Error(`ELF offset ${off} past the end`);
    return off;
  };
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const section = (i) => {
    const sh = at(shoff + i * shentsize, 64);
    return { type: buf.readUInt32LE(sh + 4), offset: Number(buf.readBigUInt64LE(sh + 0x18)), size: Number(buf.readBigUInt64LE(sh + 0x20)), link: buf.readUInt32LE(sh + 0x28), info: buf.readUInt32LE(sh + 0x2c) };
  };
  const cstring = (off) => {
    const end = buf.indexOf(0, at(off, 1));
    if (end === -1) throw new Error('unterminated ELF string');
    return buf.toString('latin1', off, end);
  };
  const out = [];
  for (let i = 0; i < shnum; i++) {
    const s = section(i);
    if (s.type !== SHT_GNU_VERNEED) continue;
    const strtab = section(s.link).offset;
    let vn = s.offset;
    for (let n = 0; n < s.info; n++) {
      at(vn, 16);
      const file = cstring(strtab + buf.readUInt32LE(vn + 4));
      let aux = vn + buf.readUInt32LE(vn + 8);
      for (let k = 0; k < buf.readUInt16LE(vn + 2); k++) {
        at(aux, 16);
        out.push({ file, version: cstring(strtab + buf.readUInt32LE(aux + 8)) });
        aux += buf.readUInt32LE(aux + 12);
      }
      vn += buf.readUInt32LE(vn + 12);
    }
  }
  return out;
}

/** Compare dotted versions numerically. */
export function compareDotted(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The highest `GLIBC_x.y` an object needs, as `x.y`, or null. */
export function highestGlibc(buf) {
  const glibc = neededVersions(buf)
    .map((v) => /^GLIBC_(\d+(?:\.\d+)*)$/.exec(v.version)?.[1])
    .filter(Boolean);
  return glibc.sort(compareDotted).pop() ?? null;
}
