// Re-chunks outgoing SSE bytes into small odd-sized pieces, always cutting between the CR
// and LF of a CRLF pair and inside every multi-byte UTF-8 sequence, so a client's stream
// parser must cope with any split. Pieces are written with a pause between them so they
// reach the client as separate reads.

const SIZES = [1, 3, 7, 15, 31, 63, 127, 255, 511];

/** Splits `bytes` (a Buffer) into the pieces described above. */
export function oddChunks(bytes) {
  const forced = new Set();
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) forced.add(i + 1); // CR | LF
    if (bytes[i] >= 0xc0) forced.add(i + 1); // lead byte | continuation bytes
  }
  const cuts = [...forced].sort((a, b) => a - b);
  const pieces = [];
  let start = 0;
  let sizeIndex = 0;
  let cutIndex = 0;
  while (start < bytes.length) {
    while (cutIndex < cuts.length && cuts[cutIndex] <= start) cutIndex += 1;
    const regular = start + SIZES[sizeIndex % SIZES.length];
    const end = Math.min(regular, cuts[cutIndex] ?? Infinity, bytes.length);
    pieces.push(bytes.subarray(start, end));
    if (end === regular) sizeIndex += 1;
    start = end;
  }
  return pieces;
}

function pause(ms) {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/**
 * A writer that sends every buffer through `res` in order. With `odd`, each buffer is cut
 * by oddChunks and paced by `delayMs`. `write` queues; `drained()` resolves when all queued
 * bytes went out; writes after the response closed are dropped.
 */
export function createPacedWriter(res, { odd, delayMs }) {
  let queue = Promise.resolve();
  const writeNow = async (bytes) => {
    if (!odd) {
      if (!res.destroyed) res.write(bytes);
      return;
    }
    for (const piece of oddChunks(bytes)) {
      if (res.destroyed) return;
      res.write(piece);
      await pause(delayMs);
    }
  };
  return {
    write(bytes) {
      queue = queue.then(() => writeNow(Buffer.from(bytes)));
      return queue;
    },
    drained() {
      return queue;
    },
  };
}
