// The log of every HTTP request the simulated SAP system received, for test assertions.
// Secrets are redacted before anything is stored: credentials, cookie values and tickets.

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);

function redactHeader(name, value) {
  if (SECRET_HEADERS.has(name)) {
    const scheme = String(value).split(' ')[0];
    return `${scheme} <redacted>`;
  }
  if (name === 'cookie') {
    return String(value)
      .split(';')
      .map((part) => `${part.split('=')[0].trim()}=<redacted>`)
      .join('; ');
  }
  return value;
}

/** Returns a copy of Node's `req.headers` with secrets redacted. */
export function redactHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactHeader(name, value);
  return out;
}

function redactUrl(url) {
  return url.replace(/(reentrance-ticket=)[^&]*/gi, '$1<redacted>');
}

export function createRequestLog() {
  let entries = [];
  return {
    /** Records one request; returns the entry so the router can add `op`/`status`. */
    record(req, extra = {}) {
      const url = redactUrl(req.url ?? '');
      const entry = {
        time: new Date().toISOString(),
        method: req.method,
        url,
        path: url.split('?')[0],
        headers: redactHeaders(req.headers),
        sni: req.socket?.servername || null,
        ...extra,
      };
      entries.push(entry);
      return entry;
    },
    list() {
      return entries.map((e) => ({ ...e, headers: { ...e.headers } }));
    },
    clear() {
      entries = [];
    },
  };
}
