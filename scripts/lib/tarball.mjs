// Release tooling (not shipped): reads an npm tarball (gzip + ustar, as `npm pack` writes it)
// without unpacking it: the entry names and `package/package.json`. Written by hand because
// the format is small and the release check must not depend on a tar binary.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;
// The tarballs are ours (about 4 MB packed, 9 MB unpacked); anything far larger is refused.
const MAX_UNPACKED = 256 * 1024 * 1024;

const text = (buf, start, len) => {
  const raw = buf.subarray(start, start + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
};

/** `{ entries: string[], manifest: object }` of the tarball at `file`. */
export function readTarball(file) {
  const tar = gunzipSync(readFileSync(file), { maxOutputLength: MAX_UNPACKED });
  const entries = [];
  let manifest = null;
  let longName = null;
  for (let off = 0; off + BLOCK <= tar.length; ) {
    const header = tar.subarray(off, off + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(text(header, 124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`${file}: bad tar header at ${off}`);
    const type = String.fromCharCode(header[156] || 0x30);
    const body = tar.subarray(off + BLOCK, off + BLOCK + size);
    if (type === 'x') {
      // A pax header: its `path=` record names the next entry.
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      longName = path ? path[1] : null;
    } else if (type !== 'g') {
      const prefix = text(header, 345, 155);
      const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
      longName = null;
      if (type === '0' || type === '5') entries.push(name);
      if (name === 'package/package.json') manifest = JSON.parse(body.toString('utf8'));
    }
    off += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  if (!manifest) throw new Error(`${file}: no package/package.json inside (not an npm tarball?)`);
  return { entries, manifest };
}
