// The HTTP surface of the simulated SAP system: reentrance-ticket issuance, ticket
// exchange into a cookie session, discovery from the Host header, session check,
// operations, and the token-guarded control endpoint.
import { timingSafeEqual } from 'node:crypto';
import { resolveCaller } from './auth.mjs';
import { callControl } from './control.mjs';
import { sessionSetCookies } from './cookies.mjs';
import { SapError } from './errors.mjs';
import { readJsonBody, sendError, sendJson } from './http-util.mjs';

export const PATHS = {
  ticket: '/sap/bc/adt/core/http/reentranceticket',
  logon: '/sap/bc/adt/sim/logon',
  discovery: '/sap/bc/adt/discovery',
  base: '/sap/bc/adt/sim',
  session: '/sap/bc/adt/sim/session',
  op: '/sap/bc/adt/sim/op',
  control: '/__control/',
};
const LOGGED_OFF_TEXT = 'Session expired: your user was logged off. Log on again.';

function appendQuery(url, name, value) {
  const sep = url.includes('?') ? '&' : '?';
  return `${url}${sep}${name}=${encodeURIComponent(value)}`;
}

function sameSecret(a, b) {
  const x = Buffer.from(String(a ?? ''));
  const y = Buffer.from(String(b ?? ''));
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createRouter(deps) {
  const { config, sessions, dispatch, requestLog, ticketLog, control, controlToken } = deps;

  function issueTicket(req, res, url) {
    const redirectUrl = url.searchParams.get('redirect-url');
    const sapClient = url.searchParams.get('sap-client');
    const caller = resolveCaller(req, config.auth);
    const record = { time: new Date().toISOString(), sapClient, redirectUrl, method: caller.method ?? null, user: caller.user ?? null };
    ticketLog.push(record);
    if (caller.error) {
      record.status = 401;
      res.writeHead(401, {
        'content-type': 'text/plain; charset=utf-8',
        'www-authenticate': `Basic realm="SAP NetWeaver Application Server [${config.sid}]"`,
      });
      return res.end(caller.error);
    }
    if (config.forbiddenUsers?.has(caller.user)) {
      record.status = 403;
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`No authorization for ADT: user ${caller.user} lacks S_ADT_RES`);
    }
    if (!redirectUrl) {
      record.status = 400;
      return sendError(res, 400, 'Parameter redirect-url is missing');
    }
    const client = sapClient ?? config.defaultClient;
    if (!config.clients.includes(client)) {
      record.status = 401;
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`Logon failed: client ${client} does not exist in system ${config.sid}`);
    }
    // A user exists per client: without sap-client the ticket is asked for the default client,
    // where a user of another client is unknown (what live systems answer: 401).
    const only = config.userClients.get(caller.user);
    if (only && !only.includes(client)) {
      record.status = 401;
      record.user = null;
      res.writeHead(401, {
        'content-type': 'text/plain; charset=utf-8',
        'www-authenticate': `Basic realm="SAP NetWeaver Application Server [${config.sid}/${client}]"`,
      });
      return res.end(`Logon failed: user ${caller.user} does not exist in client ${client}`);
    }
    record.status = 307;
    const ticket = sessions.issueTicket(caller.user, client);
    res.writeHead(307, { location: appendQuery(redirectUrl, 'reentrance-ticket', ticket), 'content-length': 0 });
    return res.end();
  }

  async function exchangeTicket(req, res, url) {
    const body = await readJsonBody(req);
    const redeemed = sessions.redeemTicket(body.ticket);
    if (redeemed.error) return sendError(res, 401, redeemed.error);
    const requested = url.searchParams.get('sap-client');
    if (config.ticketClientCheck && requested && requested !== redeemed.client) {
      return sendError(res, 401, `Logon failed: the reentrance ticket was issued for client ${redeemed.client}, not ${requested}`);
    }
    const session = sessions.createSession(redeemed.user, redeemed.client);
    return sendJson(res, 200, { user: session.user, client: session.client, systemId: config.sid }, {
      'set-cookie': sessionSetCookies({ sid: config.sid, client: session.client, sessionId: session.id }),
    });
  }

  /** The live session of a request, or undefined after answering 401. */
  function requireSession(req, res, { allowSilent = true } = {}) {
    const found = sessions.fromRequest(req);
    if (found.error) {
      sendError(res, 401, found.error);
      return undefined;
    }
    const { session } = found;
    if (session.state === 'logged-off' || (!allowSilent && session.state !== 'active')) {
      sendError(res, 401, LOGGED_OFF_TEXT);
      return undefined;
    }
    return session;
  }

  async function runOp(req, res, entry) {
    const session = requireSession(req, res);
    if (!session) return;
    const body = await readJsonBody(req);
    entry.op = body.op;
    if (typeof body.op !== 'string') return sendError(res, 400, 'Field op is missing');
    try {
      const result = await dispatch(body.op, body.payload, { session, origin: `https://${req.headers.host}` });
      sendJson(res, 200, { result: result === undefined ? null : result });
    } catch (err) {
      if (err instanceof SapError) return sendJson(res, err.status, err.toBody());
      sendError(res, 500, 'Internal error');
    }
  }

  async function runControl(req, res, name) {
    if (!sameSecret(req.headers['x-control-token'], controlToken)) return sendError(res, 403, 'control token missing or wrong');
    const body = await readJsonBody(req);
    try {
      const { found, result } = callControl(control, name, body);
      if (!found) return sendError(res, 404, `unknown control ${name}`);
      return sendJson(res, 200, { result: result === undefined ? null : result });
    } catch (err) {
      return sendError(res, 400, err.message);
    }
  }

  async function route(req, res) {
    const url = new URL(req.url ?? '/', 'http://sap.invalid');
    const path = url.pathname;
    if (req.method === 'POST' && path.startsWith(PATHS.control)) return runControl(req, res, path.slice(PATHS.control.length));
    const entry = requestLog.record(req, { clientCert: req.socket.getPeerCertificate?.()?.subject?.CN ?? null });
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    if (req.method === 'GET' && path === PATHS.ticket) return issueTicket(req, res, url);
    if (req.method === 'POST' && path === PATHS.logon) return exchangeTicket(req, res, url);
    // The base is always https: adt-ls only talks HTTPS, so a `tls: 'none'` backend is
    // meant to sit behind a TLS proxy that forwards the Host header.
    if (req.method === 'GET' && path === PATHS.discovery) {
      if (!requireSession(req, res)) return undefined;
      return sendJson(res, 200, { base: `https://${req.headers.host}${PATHS.base}` });
    }
    if (req.method === 'GET' && path === PATHS.session) {
      const session = requireSession(req, res, { allowSilent: false });
      if (session) sendJson(res, 200, { user: session.user, client: session.client, state: session.state });
      return undefined;
    }
    if (req.method === 'POST' && path === PATHS.op) return runOp(req, res, entry);
    return sendError(res, 404, `No service for ${path}`);
  }

  return async function handle(req, res) {
    try {
      await route(req, res);
    } catch (err) {
      if (!res.headersSent) sendError(res, 400, err.message);
      else res.destroy();
    }
  };
}
