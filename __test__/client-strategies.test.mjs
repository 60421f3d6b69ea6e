// Every logon strategy through createAdtLs against the simulated SAP backend: bearer (value,
// sync and async provider asked at logon time), clientCert (mutual TLS through the proxy;
// missing and foreign certificates fail cleanly), interactive (openUrl performs the browser's
// part; both requestLogonInput formats answered via promptField), and custom (an async
// registrar doing the reentrance itself through driver.setRequestHandler); failing callbacks
// end in clear errors. Logon failures are diagnosed: wrong password (401), forbidden (403),
// unreachable system (connection refused, directly or behind the TLS proxy), each with its
// code, httpStatus and url.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createAdtLs, basic, bearer, clientCert, interactive, custom } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { privateCa, issueClientCertSync } from '../simulator/lib/sap/certs.mjs';
import { tempDir, readTrace, timed } from './helpers.mjs';
import {
  PASSWORD,
  NOT_CONNECTED,
  SHORT_LOGON_MS,
  CLIENT_BOUNDS,
  installedAdtLs,
  captureLogs,
  leakWatch,
  browserLogon,
  logonUrlOf,
  assertNoSecrets,
} from './fixtures/client/support.mjs';

const TOKEN = 'tok-strategies-0b6f3e2d91';
const CERT_USER = 'CERTUSER'; // known to the backend only by its client certificate
const PROMPT_PASSWORD = 'Prompt#Secret-6620';
const BROWSER_LOGON = 'adtLs/destinations/requestBrowserBasedLogon';

let sap;
let logs;
let cert;
const traces = tempDir('adt-ls-native-trace-');
let traceSeq = 0;
const secrets = { password: PASSWORD, 'bearer token': TOKEN, 'prompt answer': PROMPT_PASSWORD };

before(async () => {
  sap = await startSapBackend({ tls: 'self-signed', tokens: { valid: [{ token: TOKEN, user: 'DEVELOPER' }] } });
  cert = sap.clientCa.issueClientCert(CERT_USER);
  logs = captureLogs();
});
after(async () => {
  logs.restore();
  await sap?.close();
  traces.cleanup();
});

/** createAdtLs on the self-signed backend through the proxy; `fn(client)` then dispose. */
async function withConnected(auth, fn, env = {}) {
  const trace = `${traces.dir}/trace-${traceSeq++}.jsonl`;
  const client = await createAdtLs({
    adtLs: installedAdtLs({ ADTLS_SIM_QUIET: '0', ADTLS_SIM_TRACE: trace, ...env }),
    connection: { systemUrl: sap.url, selfSigned: true },
    auth,
    ...CLIENT_BOUNDS,
  });
  try {
    return await fn(client, trace);
  } finally {
    await client.dispose();
  }
}

async function assertConnectedAndSearching(client) {
  const h = client.health();
  assert.deepEqual([h.connected, h.backendLive, h.destination], [true, true, 'ADTLS']);
  const result = await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
  assert.ok(result.references.some((r) => r.name === 'CL_ABAP_TYPEDESCR'), JSON.stringify(result));
}

function lastTicket() {
  const t = sap.control.lastTicketRequest;
  return { method: t.method, user: t.user, status: t.status };
}

test('bearer: a token value, a sync provider and an async provider (asked at logon time)', async () => {
  await withConnected(bearer(TOKEN), assertConnectedAndSearching);
  assert.deepEqual(lastTicket(), { method: 'bearer', user: 'DEVELOPER', status: 307 });

  let syncCalls = 0;
  const syncProvider = () => {
    syncCalls += 1;
    return TOKEN;
  };
  const syncStrategy = bearer(syncProvider, { user: 'DEVELOPER' });
  assert.equal(syncStrategy.kind, 'bearer');
  assert.equal(syncStrategy.user, 'DEVELOPER');
  assert.equal(syncCalls, 0, 'not asked when the strategy is made');
  await withConnected(syncStrategy, assertConnectedAndSearching);
  assert.equal(syncCalls, 1);

  const asked = [];
  const asyncProvider = async () => {
    asked.push(sap.control.ticketRequests().length);
    await new Promise((r) => setTimeout(r, 20));
    return TOKEN;
  };
  await withConnected(bearer(asyncProvider), async (client) => {
    await assertConnectedAndSearching(client);
    assert.equal(asked.length, 1);
    sap.control.expireSessions({ mode: 'logged-off' });
    assert.equal(await client.reconnect(), true);
    assert.equal(asked.length, 2, 'asked again at the next logon');
    assert.ok(asked[1] > asked[0], 'each time right before a ticket request');
  });
  assert.deepEqual(lastTicket(), { method: 'bearer', user: 'DEVELOPER', status: 307 });
  assertNoSecrets(assert, logs.text(), secrets, 'the log');
});

// The simulated SAP system runs inside the test process. Under Bun, node:https servers do not
// expose the peer certificate, so the SIMULATOR cannot check client certificates there; the
// addon's side of mutual TLS is the same under both runtimes and runs in the Node lane.
const BUN_TLS_SERVER_LIMIT = process.versions.bun ? "Bun's node:https server hides client certificates from the in-process simulator" : false;

test('clientCert: mutual TLS through the proxy logs on the certificate user', { skip: BUN_TLS_SERVER_LIMIT }, async () => {
  const strategy = clientCert({ cert: cert.certPem, key: Buffer.from(cert.keyPem) });
  assert.equal(strategy.kind, 'clientCert');
  assert.equal(strategy.clientCert.cert, cert.certPem);
  await withConnected(strategy, async (client) => {
    await assertConnectedAndSearching(client);
    assert.deepEqual(lastTicket(), { method: 'clientCert', user: CERT_USER, status: 307 });
    const users = sap.control.requests().filter((r) => r.clientCert === CERT_USER);
    assert.ok(users.length >= 1, 'the backend saw the client certificate');
  });
  assertNoSecrets(assert, logs.text(), { ...secrets, 'client key': cert.keyPem.split('\n')[1] }, 'the log');
});

test('clientCert failures: no certificate presented, or one from a foreign CA', async () => {
  const foreign = issueClientCertSync(await privateCa('Foreign CA'), CERT_USER);
  const noCertificate = {
    kind: 'clientCert',
    user: CERT_USER,
    // A strategy of the clientCert kind whose object carries no certificate for the proxy.
    register: (driver, ctx) => clientCert({ cert: cert.certPem, key: cert.keyPem }).register(driver, ctx),
  };
  const cases = {
    'no certificate': noCertificate,
    'foreign certificate': clientCert({ cert: foreign.certPem, key: foreign.keyPem }),
  };
  for (const [name, auth] of Object.entries(cases)) {
    const watch = leakWatch(assert);
    const r = await timed(
      withConnected(auth, () => assert.fail(`${name}: connected`), { ADTLS_SIM_LOGON_TIMEOUT_MS: SHORT_LOGON_MS, ...watch.env }),
    );
    assert.equal(r.ok, false);
    assert.match(r.error.message, NOT_CONNECTED, `${name}: ${r.error.message}`);
    assert.equal(r.error.code, 'ERR_LOGON_FAILED', `${name}: code`);
    const t = sap.control.lastTicketRequest;
    assert.deepEqual([t.status, t.user], [401, null], `${name}: the backend refused the ticket`);
    assertNoSecrets(assert, r.error.message, { ...secrets, 'client key': foreign.keyPem.split('\n')[1] }, `${name} error`);
    await watch.assertClean(name);
  }
});

test('interactive: openUrl performs the browser part (credentials, then the redirect to adt-ls)', async () => {
  const opened = [];
  let browsed;
  const strategy = interactive({
    user: 'DEVELOPER',
    openUrl: (url) => {
      opened.push(url);
      // Not returned: adt-ls is answered once openUrl settles, and it answers the browser's
      // redirect only after that answer.
      browsed = browserLogon(url, { user: 'DEVELOPER', password: PASSWORD });
    },
  });
  assert.equal(strategy.kind, 'interactive');
  assert.equal(strategy.user, 'DEVELOPER');
  await withConnected(strategy, assertConnectedAndSearching);
  assert.equal(opened.length, 1);
  // The proxy serves adt-ls only (D6): the browser gets the system's own origin instead.
  assert.ok(opened[0].startsWith(`${new URL(sap.url).origin}/sap/bc/adt/core/http/reentranceticket?redirect-url=http%3A%2F%2Flocalhost%3A`), opened[0]);
  const outcome = await browsed;
  assert.equal(outcome.status, 307);
  assert.match(outcome.location, /^http:\/\/localhost:\d+\/adt\/redirect\?reentrance-ticket=/);
  assert.deepEqual(lastTicket(), { method: 'basic', user: 'DEVELOPER', status: 307 });
});

for (const variant of ['socket', 'legacy']) {
  test(`interactive: promptField answers the ${variant} requestLogonInput format`, async () => {
    const prompted = [];
    const strategy = interactive({
      openUrl: (url) => {
        browserLogon(url, { user: 'DEVELOPER', password: PASSWORD }).catch(() => {});
      },
      promptField: async (field) => {
        prompted.push(field);
        if (field.key === 'client') return ' 001 ';
        if (field.key === 'password') return `  ${PROMPT_PASSWORD}\t`;
        return undefined;
      },
    });
    await withConnected(
      strategy,
      async (client, trace) => {
        await assertConnectedAndSearching(client);
        const record = readTrace(trace).find((e) => e.event === 'logonInput');
        assert.ok(record, 'the simulated adt-ls recorded the input');
        assert.equal(record.variant, variant);
        assert.deepEqual(record.nonSensitiveFields, { client: '001' }, 'answers are trimmed');
        const digest = createHash('sha256').update(PROMPT_PASSWORD).digest('hex');
        assert.deepEqual(record.sensitiveDigests, { password: digest }, 'the sensitive answer arrived, trimmed');
      },
      { ADTLS_SIM_LOGON_INPUT: variant },
    );
    assert.deepEqual(
      prompted.map((f) => [f.key, f.sensitive]),
      [
        ['client', false],
        ['password', true],
      ],
    );
    const labels = prompted.map((f) => f.label);
    if (variant === 'socket') assert.deepEqual(labels, ['Client of the ABAP system', 'Password of the user']);
    else assert.deepEqual(labels, ['Client', 'Password']);
    assertNoSecrets(assert, logs.text(), secrets, 'the log');
  });
}

test('custom: an async registrar whose handler does the reentrance itself', async () => {
  const seen = [];
  let browsed;
  const strategy = custom(
    async (driver, ctx) => {
      seen.push({ ctx: { ...ctx }, hasSetter: typeof driver.setRequestHandler === 'function' });
      await new Promise((r) => setTimeout(r, 20));
      driver.setRequestHandler(BROWSER_LOGON, (params) => {
        const url = logonUrlOf(params);
        if (!url) return false;
        // Not awaited: adt-ls answers the ticket delivery only after this reply.
        browsed = browserLogon(url, { user: 'DEVELOPER', password: PASSWORD, insecure: ctx.insecure });
        return true;
      });
    },
    { user: 'DEVELOPER' },
  );
  assert.equal(strategy.kind, 'custom');
  assert.equal(strategy.user, 'DEVELOPER');
  await withConnected(strategy, assertConnectedAndSearching);
  assert.deepEqual(seen, [{ ctx: { insecure: true, client: '001' }, hasSetter: true }]);
  assert.equal((await browsed).status, 307);
  assert.deepEqual(lastTicket(), { method: 'basic', user: 'DEVELOPER', status: 307 });
});

test('a failing openUrl (D5.9) or registrar is reported, never an unhandled rejection, and leaves nothing', async () => {
  const cases = {
    'rejecting openUrl': {
      auth: interactive({ openUrl: async () => Promise.reject(new Error('no browser here')) }),
      error: NOT_CONNECTED,
      code: 'ERR_LOGON_FAILED',
      warn: 'interactive openUrl failed: no browser here',
    },
    'rejecting registrar': {
      auth: custom(async () => Promise.reject(new Error('registrar broke'))),
      error: /^auth\.register failed: .*registrar broke/,
      code: 'ERR_CALLBACK_FAILED',
    },
  };
  for (const [name, c] of Object.entries(cases)) {
    const watch = leakWatch(assert);
    const r = await timed(withConnected(c.auth, () => assert.fail(`${name}: connected`), { ADTLS_SIM_LOGON_TIMEOUT_MS: SHORT_LOGON_MS, ...watch.env }));
    assert.equal(r.ok, false);
    assert.match(r.error.message, c.error, `${name}: ${r.error.message}`);
    assert.equal(r.error.code, c.code, `${name}: code`);
    if (c.warn) assert.ok(logs.of('warn').includes(c.warn), `${name}: warned`);
    await watch.assertClean(name);
  }
});

test('basic logon failures say what happened and what to do: 401, 403, unreachable', async () => {
  const NOAUTH_PASSWORD = 'Noauth#Pass-2291';
  const guarded = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: PASSWORD, NOAUTH: NOAUTH_PASSWORD }, forbiddenUsers: ['NOAUTH'] });
  const cases = {
    'wrong password': {
      systemUrl: guarded.url,
      auth: basic('DEVELOPER', 'Wrong#Pass-8812'),
      code: 'ERR_LOGON_FAILED',
      httpStatus: 401,
      text: /reentrance logon failed: wrong user or password, or an invalid or expired token: the SAP system refused the logon \(HTTP 401 from https:\/\/localhost:\d+\/sap\/bc\/adt\/core\/http\/reentranceticket\)\. Check the user and password given to basic\(\)/,
    },
    forbidden: {
      systemUrl: guarded.url,
      auth: basic('NOAUTH', NOAUTH_PASSWORD),
      code: 'ERR_LOGON_FAILED',
      httpStatus: 403,
      text: /reentrance logon failed: the user is not authorised: the SAP system refused access \(HTTP 403 from https:\/\/localhost:\d+\/sap\/bc\/adt\/core\/http\/reentranceticket\)\. Ask the SAP administrator/,
    },
    'unreachable behind the TLS proxy (selfSigned)': {
      systemUrl: 'https://127.0.0.1:1',
      selfSigned: true,
      auth: basic('DEVELOPER', PASSWORD),
      code: 'ERR_LOGON_ERROR',
      httpStatus: 502,
      text: /reentrance logon failed: the SAP system could not be reached through the localhost TLS proxy \(HTTP 502 from https:\/\/localhost:\d+\/sap\/bc\/adt\/core\/http\/reentranceticket\)\. Check connection\.systemUrl, connection\.forwardProxy/,
    },
    unreachable: {
      systemUrl: 'https://127.0.0.1:1',
      auth: basic('DEVELOPER', PASSWORD),
      code: 'ERR_LOGON_ERROR',
      httpStatus: undefined,
      text: /reentrance logon failed: the SAP system is unreachable: 127\.0\.0\.1:1 refused the connection \(https:\/\/127\.0\.0\.1:1\/sap\/bc\/adt\/core\/http\/reentranceticket\)\. Check the host and port in connection\.systemUrl/,
    },
  };
  try {
    for (const [name, c] of Object.entries(cases)) {
      const watch = leakWatch(assert);
      const selfSigned = c.selfSigned ?? c.systemUrl === guarded.url;
      const r = await timed(
        createAdtLs({
          adtLs: installedAdtLs({ ADTLS_SIM_LOGON_TIMEOUT_MS: SHORT_LOGON_MS, ...watch.env }),
          connection: { systemUrl: c.systemUrl, selfSigned },
          auth: c.auth,
          ...CLIENT_BOUNDS,
        }),
      );
      assert.equal(r.ok, false, `${name}: connected anyway`);
      assert.match(r.error.message, NOT_CONNECTED, `${name}: ${r.error.message}`);
      assert.match(r.error.message, c.text, `${name}: ${r.error.message}`);
      assert.equal(r.error.code, c.code, `${name}: code (${r.error.message})`);
      assert.equal(r.error.httpStatus, c.httpStatus, `${name}: httpStatus`);
      assert.equal(r.error.destination, 'ADTLS', `${name}: destination`);
      assert.match(r.error.url ?? '', /^https:\/\/[^@?]+\/sap\/bc\/adt\/core\/http\/reentranceticket$/, `${name}: url detail without userinfo or query`);
      assertNoSecrets(assert, r.error.message, { ...secrets, noauth: NOAUTH_PASSWORD }, `${name} error`);
      await watch.assertClean(name);
    }
    assert.equal(guarded.control.lastTicketRequest.status, 403);
  } finally {
    await guarded.close();
  }
});
