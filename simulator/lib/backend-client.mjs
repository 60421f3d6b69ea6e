// The simulated adt-ls's HTTPS client to the SAP backend, behaving like the JVM's Apache
// HttpClient: trusts exactly the CAs of its truststore, verifies the host name, keeps a
// cookie jar, exchanges the reentrance ticket, discovers the service base from the
// backend and runs operations. Failures carry Java-like messages.
//
// Error contract of `call(op, payload)`: a backend error body `{error: {message, code?,
// data?}}` rejects with Error(message) carrying `.code` (default -32603, JSON-RPC internal
// error, which is what LSP4J sends for a failed request) and `.data`. An HTTP 401 rejects
// with `Your user was logged off. Log on again. (HTTP 401: <reason>)`, code -32603, and
// `.loggedOff = true`. Transport/TLS failures reject with the Java exception text.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export const LOGGED_OFF_MESSAGE = 'Your user was logged off. Log on again.';
const INTERNAL_ERROR = -32603;
const PKIX_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const USER_AGENT_ERROR =
  'java.lang.NoClassDefFoundError: Could not initialize class com.sap.adt.communication.http.HttpRequestHeaderUtil';

/** Resolves `localhost` and `*.sim.internal` to 127.0.0.1 (IPv4 first, as the JVM does). */
function simLookup(hostname, options, callback) {
  const opts = typeof options === 'function' ? {} : options;
  const cb = typeof options === 'function' ? options : callback;
  if (hostname === 'localhost' || hostname.endsWith('.sim.internal')) {
    if (opts.all) return cb(null, [{ address: '127.0.0.1', family: 4 }]);
    return cb(null, '127.0.0.1', 4);
  }
  return dns.lookup(hostname, opts, cb);
}

function altNames(cert) {
  return String(cert?.subjectaltname ?? '')
    .split(',')
    .map((s) => s.trim().replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);
}

/** The Java exception text for a Node transport or TLS error. */
export function javaErrorText(err, url) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (PKIX_CODES.has(err.code)) {
    return (
      'javax.net.ssl.SSLHandshakeException: PKIX path building failed: ' +
      'sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target'
    );
  }
  if (err.code === 'CERT_HAS_EXPIRED' || err.code === 'CERT_NOT_YET_VALID') {
    return 'javax.net.ssl.SSLHandshakeException: PKIX path validation failed: java.security.cert.CertPathValidatorException: validity check failed';
  }
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = altNames(err.cert);
    const prefix = `javax.net.ssl.SSLPeerUnverifiedException: Certificate for <${host}> doesn't match`;
    if (names.length === 0 && err.cert?.subject?.CN) {
      return `${prefix} common name of the certificate subject: ${err.cert.subject.CN}`;
    }
    return `${prefix} any of the subject alternative names: [${names.join(', ')}]`;
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (err.code === 'ECONNREFUSED') {
    return `org.apache.http.conn.HttpHostConnectException: Connect to ${host}:${port} failed: Connection refused`;
  }
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `java.net.UnknownHostException: ${host}: Name or service not known`;
  if (err.code === 'ECONNRESET' || /socket hang up/.test(err.message)) return 'java.net.SocketException: Connection reset';
  if (err.code === 'EPROTO' || /wrong version number|packet length too long/i.test(err.message)) {
    return 'javax.net.ssl.SSLException: Unsupported or unrecognized SSL message';
  }
  if (err.code === 'ETIMEDOUT') return 'java.net.SocketTimeoutException: Read timed out';
  return `java.io.IOException: ${err.message}`;
}

function errorWith(message, { code = INTERNAL_ERROR, data, loggedOff = false, status } = {}) {
  const err = new Error(message);
  err.code = code;
  if (data !== undefined) err.data = data;
  if (loggedOff) err.loggedOff = true;
  if (status !== undefined) err.status = status;
  return err;
}

function parseBody(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Creates a client for the destination's `systemUrl`. `trust` is `loadJvmTrust()`'s
 * result; `userAgentInfos` comes from the LSP initialize params (absent -> every request
 * fails, as in adt-ls); `timeoutMs` bounds every request.
 */
export function createBackendClient({ systemUrl, trust, userAgentInfos, timeoutMs = 180_000 }) {
  const jar = new Map();
  const state = { base: undefined, user: undefined, client: undefined };

  function request(method, target, body) {
    const url = new URL(target);
    if (trust?.error) return Promise.reject(errorWith(trust.error));
    if (!Array.isArray(userAgentInfos) || userAgentInfos.length === 0) return Promise.reject(errorWith(USER_AGENT_ERROR));
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = {
      accept: 'application/json',
      'user-agent': userAgentInfos.map((u) => `${u?.name}/${u?.version}`).join(' ') + ' ADTLS-Simulator',
    };
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (text !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(text);
    }
    const isHttps = url.protocol === 'https:';
    const options = { method, headers, lookup: simLookup, timeout: timeoutMs, agent: false };
    if (isHttps) Object.assign(options, { ca: trust?.ca, rejectUnauthorized: true });
    // The JVM's default SSLContext presents the javax.net.ssl.keyStore key when asked.
    if (isHttps && trust?.identity) Object.assign(options, { key: trust.identity.key, cert: trust.identity.cert });
    if (isHttps && !net.isIP(url.hostname)) options.servername = url.hostname;
    return new Promise((resolve, reject) => {
      const req = (isHttps ? https : http).request(url, options, (res) => {
        for (const cookie of res.headers['set-cookie'] ?? []) {
          const pair = cookie.split(';')[0];
          const eq = pair.indexOf('=');
          if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: parseBody(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', (err) => reject(errorWith(javaErrorText(err, url))));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.on('error', (err) => reject(errorWith(javaErrorText(err, url))));
      req.end(text);
    });
  }

  function failure(res) {
    const error = res.body?.error ?? {};
    if (res.status === 401) {
      return errorWith(`${LOGGED_OFF_MESSAGE} (HTTP 401: ${error.message ?? 'Unauthorized'})`, { loggedOff: true, status: 401 });
    }
    return errorWith(error.message ?? `HTTP ${res.status}`, { code: error.code ?? INTERNAL_ERROR, data: error.data, status: res.status });
  }

  const withClient = (path, client) => `${path}${path.includes('?') ? '&' : '?'}sap-client=${encodeURIComponent(client)}`;

  return {
    get base() {
      return state.base;
    },
    get user() {
      return state.user;
    },
    get client() {
      return state.client;
    },
    systemUrl,

    /** Exchanges a reentrance ticket for a session, then runs discovery. */
    async logon(ticket, { client }) {
      const res = await request('POST', withClient(new URL('/sap/bc/adt/sim/logon', systemUrl).href, client), { ticket });
      if (res.status !== 200) throw failure(res);
      state.user = res.body?.user;
      state.client = res.body?.client ?? client;
      const discovery = await request('GET', withClient(new URL('/sap/bc/adt/discovery', systemUrl).href, state.client));
      if (discovery.status !== 200 || typeof discovery.body?.base !== 'string') throw failure(discovery);
      // Like ADT's own service links, only the path is used: adt-ls keeps talking to the
      // destination's systemUrl (the localhost proxy when one fronts the system), whatever
      // host name the backend saw.
      state.base = new URL(new URL(discovery.body.base).pathname, systemUrl).href.replace(/\/$/, '');
      return { user: state.user, client: state.client };
    },

    /** True when the backend still knows the session (a real round trip). */
    async checkSession() {
      if (!state.base) return false;
      try {
        const res = await request('GET', withClient(`${state.base}/session`, state.client));
        return res.status === 200;
      } catch {
        return false;
      }
    },

    /** Runs `op` with `payload` on the backend; see the error contract at the top. */
    async call(op, payload) {
      if (!state.base) throw errorWith(`${LOGGED_OFF_MESSAGE} (not logged on)`, { loggedOff: true });
      const res = await request('POST', withClient(`${state.base}/op`, state.client), { op, payload });
      if (res.status !== 200) throw failure(res);
      return res.body?.result ?? null;
    },
  };
}
