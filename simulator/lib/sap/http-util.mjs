// Small HTTP helpers for the simulated SAP server: bounded JSON body reading and JSON
// responses.

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Reads the request body as JSON (`{}` when empty). Rejects on invalid JSON or size. */
export function readJsonBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new Error('request body is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}

/** Sends `body` as JSON with `status` and optional extra headers. */
export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Sends a SAP-style error body `{error: {message, code?, data?}}`. */
export function sendError(res, status, message, extra = {}) {
  sendJson(res, status, { error: { message, ...extra } });
}
