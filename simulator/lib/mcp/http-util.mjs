// Small HTTP helpers of the simulated MCP endpoint: token creation and checking, bounded
// body reading, and plain/JSON-RPC error responses.
import { randomBytes, timingSafeEqual } from 'node:crypto';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A fresh MCP token: 256 random bits, base64url. */
export function newMcpToken() {
  return randomBytes(32).toString('base64url');
}

/** A JSON-RPC error body without an id, as HTTP-level rejections carry. */
export function rpcErrorBody(code, message) {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Writes a complete response; JSON-looking bodies get application/json. */
export function send(res, status, body = '', headers = {}) {
  const bytes = Buffer.from(body);
  const type = body.startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8';
  res.writeHead(status, {
    ...(bytes.length > 0 ? { 'content-type': type } : {}),
    'content-length': bytes.length,
    ...headers,
  });
  res.end(bytes);
}

/** Reads a request body as UTF-8 text (at most 4 MiB). */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      size > MAX_BODY_BYTES ? reject(new Error('too large')) : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

/** True when `header` is `Bearer <token>` (constant-time comparison). */
export function tokenMatches(header, token) {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
