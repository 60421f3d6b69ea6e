// createAdtLs in connected mode through the public API: basic logon to the simulated SAP
// backend behind the localhost TLS proxy (destination, logon and MCP binding on the wire),
// the session upkeep (automatic re-logon, backendLive after a failed revive, reconnect),
// logon failures that leave nothing behind, the clientCert guard, and no secret in any log
// line or error message.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAdtLs, basic, bearer, clientCert } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { tempDir, readTrace, incoming, timed } from './helpers.mjs';
import {
  PASSWORD,
  NOT_CONNECTED,
  SHORT_LOGON_MS,
  CLIENT_BOUNDS,
  installedAdtLs,
  captureLogs,
  leakWatch,
  assertNoSecrets,
  portClosed,
  proxyPortIn,
} from './fixtures/client/support.mjs';

const TOKEN = 'tok-valid-5c1d0e9a7b';
const EXPIRED_TOKEN = 'tok-expired-77e2f1c3a0';
const WRONG_PASSWORD = 'Wrong#Pass-4417';
const CLIENT_CERT_GUARD =
  'clientCert auth requires connection.selfSigned — the reverse proxy presents the client cert to the backend.';

let sap;
let logs;
const traces = tempDir('adt-ls-native-trace-');
const secrets = {
  password: PASSWORD,
  'wrong password': WRONG_PASSWORD,
  'basic credentials': Buffer.from(`DEVELOPER:${PASSWORD}`).toString('base64'),
  'bearer token': TOKEN,
  'expired token': EXPIRED_TOKEN,
};
let traceSeq = 0;

before(async () => {
  sap = await startSapBackend({ tls: 'self-signed', tokens: { valid: [TOKEN], expired: [EXPIRED_TOKEN] } });
  logs = captureLogs();
});
after(async () => {
  logs.restore();
  await sap?.close();
  traces.cleanup();
});

/** Connected options on the self-signed backend; a trace file per client. */
function connected(auth, env = {}, extra = {}) {
  const trace = `${traces.dir}/trace-${traceSeq++}.jsonl`;
  return {
    trace,
    opts: {
      adtLs: installedAdtLs({ ADTLS_SIM_QUIET: '0', ADTLS_SIM_TRACE: trace, ...env }),
      connection: { systemUrl: sap.url, selfSigned: true },
      auth,
      ...CLIENT_BOUNDS,
      ...extra,
    },
  };
}

/** The MCP token the client sent (read back from the trace), to look for in logs. */
function mcpTokenOf(trace) {
  return incoming(readTrace(trace)).find((m) => m.method === 'adtLs/mcp/startMCPServer')?.params?.token;
}

function searchHits(result) {
  return result.references.some((r) => r.name === 'CL_ABAP_TYPEDESCR' && r.type === 'CLAS/OC');
}

test('basic: connected through the TLS proxy, a search hits; destination, logon and MCP binding on the wire', async () => {
  const { opts, trace } = connected(basic('DEVELOPER', PASSWORD));
  const client = await createAdtLs(opts);
  try {
    const h = client.health();
    assert.deepEqual(
      { connected: h.connected, backendLive: h.backendLive, destination: h.destination, adtLsName: h.adtLsName },
      { connected: true, backendLive: true, destination: 'ADTLS', adtLsName: 'ADTLS' },
    );
    assert.match(h.adtLsVersion, /^1\./);
    assert.ok(searchHits(await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] })));
    assert.ok(searchHits(await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'], cold: true })));
    const uri = await client.repository.getLsUri('/sap/bc/adt/oo/classes/zcl_test');
    assert.match(uri, /^abap:\/repotree-v1\/ADTLS\/.*zcl_test\.clas\.abap$/);
    assert.match(await client.repository.readFile(uri), /CLASS zcl_test/i);
    assert.ok((await client.repository.getUsers()).some((u) => u.id === 'DEVELOPER'));
    const destinations = await client.listDestinations();
    assert.ok(JSON.stringify(destinations).includes('ADTLS'), JSON.stringify(destinations));

    const ticket = sap.control.lastTicketRequest;
    assert.deepEqual({ method: ticket.method, user: ticket.user, status: ticket.status, sapClient: ticket.sapClient }, {
      method: 'basic',
      user: 'DEVELOPER',
      status: 307,
      sapClient: '001',
    });

    await client.raw.lsp('sim/echo', {});
    const msgs = incoming(readTrace(trace));
    const create = msgs.find((m) => m.method === 'adtLs/destinations/create');
    assert.deepEqual(Object.keys(create.params), ['id', 'protocol', 'properties']);
    const { systemUrl, ...props } = create.params.properties;
    assert.match(systemUrl, /^https:\/\/localhost:\d+$/, 'the destination points at the local TLS proxy');
    assert.deepEqual(props, { authenticationKind: 'reentranceTicket', user: 'DEVELOPER', client: '001', language: 'EN' });
    assert.deepEqual({ id: create.params.id, protocol: create.params.protocol }, { id: 'ADTLS', protocol: 'http' });
    const order = ['adtLs/destinations/initializeService', 'adtLs/destinations/create', 'adtLs/destinations/ensureLoggedOn', 'adtLs/mcp/startMCPServer', 'adtLs/mcp/setDestination'];
    const at = order.map((m) => msgs.findIndex((x) => x.method === m));
    assert.ok(at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1])), `startup order ${at}`);
    assert.deepEqual(msgs.find((m) => m.method === 'adtLs/destinations/ensureLoggedOn').params, ['ADTLS']);
    assert.deepEqual(msgs.find((m) => m.method === 'adtLs/mcp/setDestination').params, { destinationId: 'ADTLS' });
    secrets['MCP token'] = mcpTokenOf(trace);
    assert.match(secrets['MCP token'], /^[0-9a-f]{48}$/);
  } finally {
    await client.dispose();
  }
  const h = client.health();
  assert.equal(h.connected, false);
  assert.equal(h.backendLive, false);
  assertNoSecrets(assert, logs.text(), secrets, 'the log');
});

test('raw.tool on a connected client; adt-ls replacing the MCP token: the client uses the token it answers with', async () => {
  const { opts, trace } = connected(basic('DEVELOPER', PASSWORD), { ADTLS_SIM_MCP_REPLACE_TOKEN: 'true' });
  const client = await createAdtLs(opts);
  try {
    const result = await client.raw.tool('abap_list_destinations', {});
    // The simulated backend's entry for the logged-on destination (simulator/lib/sap/tools).
    assert.deepEqual(JSON.parse(result.content[0].text), [
      { destination: 'ADTLS', systemId: 'A4H', client: '001', user: 'DEVELOPER', language: 'EN' },
    ]);
    assert.equal(result.isError, undefined);
    const events = readTrace(trace);
    // The start that succeeded (a port taken by another test makes the client try the next).
    const answers = events.filter((e) => e.dir === 'out' && e.message?.result?.token).map((e) => e.message);
    assert.equal(answers.length, 1, 'one MCP server started');
    const answer = answers[0].result;
    const start = incoming(events).find((m) => m.method === 'adtLs/mcp/startMCPServer' && m.id === answers[0].id);
    assert.match(start.params.token, /^[0-9a-f]{48}$/);
    assert.match(answer?.token ?? '', /^[\w-]{43}$/, "adt-ls's own token (32 random bytes, base64url)");
    assert.notEqual(answer.token, start.params.token, 'adt-ls answered with a token of its own');
    // The MCP endpoint answers 401 to any other token: the call above went through with adt-ls's.
    secrets['replaced MCP token'] = answer.token;
    secrets['requested MCP token'] = start.params.token;
  } finally {
    await client.dispose();
  }
  assertNoSecrets(assert, logs.text(), secrets, 'the log');
});

test('an expired session is logged on again transparently (basic)', async () => {
  const { opts } = connected(basic('DEVELOPER', PASSWORD));
  const client = await createAdtLs(opts);
  try {
    const ticketsBefore = sap.control.ticketRequests().length;
    assert.ok(sap.control.expireSessions({ mode: 'logged-off' }).expired >= 1);
    assert.ok(searchHits(await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] })));
    assert.ok(sap.control.ticketRequests().length > ticketsBefore, 'a new ticket was fetched');
    assert.equal(client.health().backendLive, true);
    sap.control.expireSessions({ mode: 'silent-empty' });
    assert.ok(searchHits(await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] })), 'empty search revived');
    assert.ok(logs.of('warn').includes('SAP session appears dead (liveness probe empty) — forcing re-logon'));
  } finally {
    await client.dispose();
  }
});

test('health turns backendLive false after expiry and a failed revive; reconnect logs on again', async () => {
  let token = TOKEN;
  let calls = 0;
  const provider = async () => {
    calls += 1;
    return token;
  };
  const { opts } = connected(bearer(provider, { user: 'DEVELOPER' }), { ADTLS_SIM_LOGON_TIMEOUT_MS: SHORT_LOGON_MS });
  const client = await createAdtLs(opts);
  try {
    assert.equal(client.health().backendLive, true);
    const logonCalls = calls;
    token = EXPIRED_TOKEN; // the identity provider now hands out a stale token
    sap.control.expireSessions({ mode: 'logged-off' });
    const r = await timed(client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] }));
    assert.equal(r.ok, false, 'the search cannot succeed without a session');
    assert.match(r.error.message, /logged off/i);
    assert.ok(calls > logonCalls, 'the provider was asked again for the re-logon');
    const h = client.health();
    assert.equal(h.backendLive, false);
    assert.equal(h.connected, false, 'decisions D5.10: connected reflects the failed re-logon');
    assert.equal(await client.reconnect(), false, 'still the stale token');
    token = TOKEN;
    assert.equal(await client.reconnect(), true);
    assert.deepEqual([client.health().connected, client.health().backendLive], [true, true]);
    assert.ok(searchHits(await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] })));
    assertNoSecrets(assert, r.error.message, secrets, 'the search error');
  } finally {
    await client.dispose();
  }
  assert.ok(logs.of('warn').some((m) => m.startsWith('bearer reentrance logon failed: ')), 'the failed re-logon was logged');
  assertNoSecrets(assert, logs.text(), secrets, 'the log');
});

test('logon failures (wrong password, expired token) reject clearly and leave nothing behind', async () => {
  const cases = {
    'wrong password': basic('DEVELOPER', WRONG_PASSWORD),
    'expired token': bearer(EXPIRED_TOKEN),
  };
  for (const [name, auth] of Object.entries(cases)) {
    const watch = leakWatch(assert);
    // adt-ls itself would wait for a ticket far longer than this test: the failed ticket GET
    // must end the logon at once, with its cause.
    const { opts } = connected(auth, { ADTLS_SIM_LOGON_TIMEOUT_MS: '60000', ...watch.env });
    const warnsBefore = logs.of('warn').length;
    const linesBefore = logs.lines.length;
    const r = await timed(createAdtLs(opts));
    assert.equal(r.ok, false, `${name}: connected anyway`);
    assert.match(r.error.message, NOT_CONNECTED, `${name}: ${r.error.message}`);
    assert.match(r.error.message, /reentrance logon failed: .*401/, `${name}: the cause is in the error`);
    assert.equal(r.error.code, 'ERR_LOGON_FAILED', `${name}: code`);
    assert.equal(r.error.httpStatus, 401, `${name}: httpStatus`);
    assert.equal(typeof r.error.destination, 'string', `${name}: destination`);
    assert.match(r.error.cause?.message ?? '', /reentrance logon failed: .*401/, `${name}: cause`);
    assert.ok(r.ms < 10000, `${name}: took ${r.ms}ms`);
    const warns = logs.of('warn').slice(warnsBefore);
    assert.ok(warns.some((w) => /reentrance logon failed: .*401/.test(w)), `${name}: the 401 was logged: ${warns}`);
    assert.equal(sap.control.lastTicketRequest.status, 401);
    assertNoSecrets(assert, r.error.message, secrets, `${name} error`);
    await watch.assertClean(name);
    const proxyPort = proxyPortIn(logs.lines.slice(linesBefore).map((l) => l.msg));
    assert.ok(proxyPort, `${name}: the TLS proxy had started`);
    assert.equal(await portClosed(proxyPort), true, `${name}: the TLS proxy is closed`);
  }
  assertNoSecrets(assert, logs.text(), secrets, 'the log');
});

test('clientCert without selfSigned is refused with the reference text before anything exists', async () => {
  const watch = leakWatch(assert);
  const { certPem, keyPem } = sap.clientCa.issueClientCert('CERTUSER');
  const { opts } = connected(clientCert({ cert: certPem, key: keyPem }), watch.env);
  opts.connection = { systemUrl: sap.url };
  const p = createAdtLs(opts);
  assert.deepEqual(watch.fresh(), []);
  await assert.rejects(p, (e) => e.message === CLIENT_CERT_GUARD);
  assert.deepEqual(watch.pids(), []);
  assert.deepEqual(watch.fresh(), []);
});
