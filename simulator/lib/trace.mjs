// The wire trace: one JSON line per event, appended synchronously so that a crash or SIGKILL
// keeps everything written so far. Message events are {t, dir:'in'|'out', message}; incoming
// frames are preceded by {t, dir:'in', rawHeader}; other modules add {t, event, ...}.
// Also parses incoming LSP frames from raw bytes (the trace records exactly what arrived).

import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

const SECRET_KEY = /token|password|passwd|ticket|secret/i;

/**
 * Opens a trace writer. Without a file it returns a no-op writer so callers never branch.
 * `redact` replaces the values of secret-looking keys with "***".
 */
export function openTrace(file, { redact = false } = {}) {
  if (!file) return Object.assign(() => {}, { enabled: false, file: undefined, close() {} });
  const path = resolve(file);
  const fd = openSync(path, 'a', 0o600);
  let open = true;
  const write = (event) => {
    if (!open) return;
    const record = { t: event.t ?? Date.now(), ...event };
    const line = JSON.stringify(redact ? redactSecrets(record) : record);
    try {
      // writeSync may write less than asked (a signal mid-write: JavaScriptCore suspends
      // threads with signals), and a torn line would stay torn: write until all is out.
      const bytes = Buffer.from(`${line}\n`);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch {
      // A trace must never take the simulated process down.
    }
  };
  return Object.assign(write, {
    enabled: true,
    file: path,
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  });
}

/** Reads a trace file back as an array of events (a torn last line is skipped). */
export function readTrace(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  const events = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // A line torn by a crash mid-write carries no usable event.
    }
  }
  return events;
}

export function redactSecrets(value) {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) && typeof inner === 'string' ? '***' : redactSecrets(inner);
    }
    return out;
  }
  return value;
}

/**
 * Incremental LSP frame parser over raw bytes: calls onFrame(rawHeader, bodyText) for each
 * complete frame. It is a passive observer; vscode-jsonrpc does the real parsing.
 */
export function createFrameTap(onFrame) {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const rawHeader = buffer.subarray(0, end).toString('ascii');
      const match = /^content-length:\s*(\d+)\s*$/im.exec(rawHeader);
      if (!match) {
        // Not a frame we understand; drop the header so the tap never stalls.
        buffer = buffer.subarray(end + 4);
        onFrame(rawHeader, undefined);
        continue;
      }
      const length = Number(match[1]);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      onFrame(rawHeader, body);
    }
  };
}
