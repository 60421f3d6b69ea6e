// The simulated SAP system (an S/4HANA "A4H" stand-in): a real HTTP(S) server with
// in-process certificates, reentrance-ticket logon, cookie sessions, discovery, an
// in-memory ABAP repository served as adt-ls operations, and a control API.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { tokenTable } from './auth.mjs';
import { issueClientCertSync, issueServerCert, privateCa, selfSignedServerCert } from './certs.mjs';
import { createControl } from './control.mjs';
import { createFaults } from './faults.mjs';
import { Repository } from './model/repository.mjs';
import { createOpDispatcher } from './ops/index.mjs';
import { createRequestLog } from './request-log.mjs';
import { createRouter } from './routes.mjs';
import { createSessionStore } from './sessions.mjs';

export { PATHS } from './routes.mjs';

const TLS_MODES = new Set(['self-signed', 'private-ca', 'private-ca-expired', 'private-ca-wrong-host', 'none']);

function normaliseConfig(opts) {
  const users = opts.users ?? { DEVELOPER: 'Developer#1' };
  const defaultTokenUser = Object.keys(users)[0]?.toUpperCase() ?? 'DEVELOPER';
  return {
    sid: opts.sid ?? 'A4H',
    users,
    clients: opts.clients ?? ['001'],
    defaultClient: opts.defaultClient ?? '001',
    // user -> the only clients it exists in (users not listed exist in every client)
    userClients: new Map(Object.entries(opts.userClients ?? {}).map(([u, c]) => [u.toUpperCase(), [...c]])),
    ticketClientCheck: opts.ticketClientCheck ?? true,
    diffWarmupPages: opts.diffWarmupPages ?? 2,
    transportListShape: opts.transportListShape ?? 'array',
    crlfOnReload: opts.crlfOnReload ?? true,
    forbiddenUsers: new Set((opts.forbiddenUsers ?? []).map((u) => u.toUpperCase())),
    auth: {
      users,
      validTokens: tokenTable(opts.tokens, defaultTokenUser),
      expiredTokens: new Set(opts.tokens?.expired ?? []),
    },
  };
}

async function serverMaterial(tls, hostname, sid) {
  if (tls === 'self-signed') {
    const leaf = await selfSignedServerCert(hostname);
    return { ...leaf, caCertPem: leaf.certPem };
  }
  if (tls.startsWith('private-ca')) {
    const ca = await privateCa(`${sid} Simulator Root CA`);
    // Faults for TLS diagnoses: a leaf that expired yesterday, or one for another host name.
    const names = tls === 'private-ca-wrong-host'
      ? { commonName: 'other.sim.internal', dnsNames: ['other.sim.internal'], ipAddresses: [] }
      : { commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] };
    const days = tls === 'private-ca-expired' ? -0.5 : undefined;
    const leaf = await issueServerCert(ca, { ...names, days });
    return { ...leaf, caCertPem: ca.certPem };
  }
  return {};
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address().port);
    });
  });
}

/**
 * Starts the simulated SAP backend. Options: `tls` ('self-signed' | 'private-ca' |
 * 'none'), `hostname` (self-signed cert name), `port`, `bindHost`, `users`, `tokens`,
 * `forbiddenUsers` (known users whose ticket request gets 403),
 * `sid`, `clients`, `defaultClient`, `userClients` (`{USER: ['100']}`: a user who exists
 * only in those clients, so a ticket request for another client gets 401), `ticketTtlMs`,
 * `ticketClientCheck`,
 * `diffWarmupPages`, `transportListShape`, `crlfOnReload` (toggled sources are served with
 * CRLF, default true), `controlToken`.
 */
export async function startSapBackend(opts = {}) {
  const tls = opts.tls ?? 'self-signed';
  if (!TLS_MODES.has(tls)) throw new Error(`unknown tls mode ${tls}`);
  const config = normaliseConfig(opts);
  const hostname = opts.hostname ?? 'sap-a4h.sim.internal';
  const clientCaPair = await privateCa(`${config.sid} Simulator Client CA`);
  const clientCa = {
    certPem: clientCaPair.certPem,
    issueClientCert: (cn) => issueClientCertSync(clientCaPair, cn),
  };
  const material = await serverMaterial(tls, hostname, config.sid);
  const repoRef = { current: new Repository() };
  const faults = createFaults();
  const state = { coverage: new Map(), worklists: new Map(), aiFixJobs: new Map() };
  const sessions = createSessionStore({ sid: config.sid, ticketTtlMs: opts.ticketTtlMs ?? 60_000 });
  const requestLog = createRequestLog();
  const ticketLog = [];
  const controlToken = opts.controlToken ?? randomBytes(24).toString('hex');
  const control = createControl({ sessions, faults, requestLog, repoRef, ticketLog, clientCa, state });
  const dispatch = createOpDispatcher({ repoRef, faults, config, state });
  const scheme = tls === 'none' ? 'http' : 'https';
  const handler = createRouter({ config, sessions, dispatch, requestLog, ticketLog, control, controlToken });

  const server =
    tls === 'none'
      ? http.createServer(handler)
      : https.createServer(
          { key: material.keyPem, cert: material.certPem, requestCert: true, rejectUnauthorized: false, ca: [clientCa.certPem] },
          handler,
        );
  const bindHost = opts.bindHost ?? '127.0.0.1';
  const port = await listen(server, opts.port ?? 0, bindHost);
  let closed;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    hostname: tls === 'self-signed' ? hostname : 'localhost',
    caCertPem: material.caCertPem,
    certPem: material.certPem,
    clientCa,
    control,
    controlToken,
    close() {
      closed ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
