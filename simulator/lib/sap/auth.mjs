// Who is calling: resolves the caller of a reentrance-ticket request from Basic or Bearer
// credentials or from a client certificate presented over mutual TLS.

function decodeBasic(value) {
  try {
    const text = Buffer.from(value, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon < 0) return undefined;
    return { user: text.slice(0, colon), password: text.slice(colon + 1) };
  } catch {
    return undefined;
  }
}

/** Normalises `tokens.valid` entries (strings or `{token, user}`) to a Map token -> user. */
export function tokenTable(tokens = {}, defaultUser = 'DEVELOPER') {
  const table = new Map();
  for (const entry of tokens.valid ?? []) {
    if (typeof entry === 'string') table.set(entry, defaultUser);
    else if (entry && typeof entry.token === 'string') {
      table.set(entry.token, String(entry.user ?? defaultUser).toUpperCase());
    }
  }
  return table;
}

function fromAuthorization(header, { users, validTokens, expiredTokens }) {
  const [scheme, ...rest] = header.split(' ');
  const value = rest.join(' ').trim();
  if (/^basic$/i.test(scheme)) {
    const creds = decodeBasic(value);
    const known = creds && Object.keys(users).find((u) => u.toUpperCase() === creds.user.toUpperCase());
    if (known && users[known] === creds.password) return { user: known.toUpperCase(), method: 'basic' };
    return { error: 'Logon failed: user name or password is incorrect (Basic)' };
  }
  if (/^bearer$/i.test(scheme)) {
    if (validTokens.has(value)) return { user: validTokens.get(value), method: 'bearer' };
    if (expiredTokens.has(value)) return { error: 'Logon failed: token expired (Bearer)' };
    return { error: 'Logon failed: invalid bearer token' };
  }
  return { error: `Logon failed: unsupported authorization scheme ${scheme}` };
}

function fromClientCert(socket) {
  if (typeof socket?.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.subject) return undefined;
  if (!socket.authorized) {
    return { error: `Logon failed: client certificate not accepted (${socket.authorizationError})` };
  }
  const cn = cert.subject.CN;
  if (!cn) return { error: 'Logon failed: client certificate has no common name' };
  return { user: String(cn).toUpperCase(), method: 'clientCert' };
}

/**
 * Resolves the caller: `{user, method}` on success, `{error}` for bad credentials, or
 * `{error, missing: true}` when no credential at all was presented.
 */
export function resolveCaller(req, config) {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') return fromAuthorization(header, config);
  const byCert = fromClientCert(req.socket);
  if (byCert) return byCert;
  return { error: 'Logon failed: no credentials (Basic, Bearer or client certificate) presented', missing: true };
}
