// Opaque tools/list pagination cursors. A cursor is base64 of a few binary marker bytes plus
// the page offset, built so the text always contains '+', '/' and '=' (clients must pass it
// through untouched, never parse or re-encode it).
const MARKER = Buffer.from([0xfb, 0xff, 0xfe]); // encodes to "+//+"
const PREFIX = 'offset=';

export function encodeCursor(offset) {
  let payload = Buffer.concat([MARKER, Buffer.from(`${PREFIX}${offset}`)]);
  // Make the length 1 modulo 3 so the base64 text ends in "==".
  while (payload.length % 3 !== 1) payload = Buffer.concat([payload, Buffer.from(' ')]);
  return payload.toString('base64');
}

/** The offset a cursor stands for, or undefined when it is not one of ours. */
export function decodeCursor(cursor) {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9+/]+=*$/.test(cursor)) return undefined;
  const payload = Buffer.from(cursor, 'base64');
  if (!payload.subarray(0, MARKER.length).equals(MARKER)) return undefined;
  const text = payload.subarray(MARKER.length).toString('latin1').trimEnd();
  if (!text.startsWith(PREFIX)) return undefined;
  const offset = Number(text.slice(PREFIX.length));
  return Number.isInteger(offset) && offset >= 0 ? offset : undefined;
}
