// Tests of the logon flow of the simulated adt-ls (lib/logon), driven over an in-process
// vscode-jsonrpc pair with a test "SDK" on the other end, against the simulated backend.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, afterEach, before, describe, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { createContext } from '../lib/context.mjs';
import { createPkcs12Truststore } from '../lib/jvm-trust.mjs';
import { registerLogon } from '../lib/logon/index.mjs';
import { startSapBackend } from '../lib/sap/index.mjs';

const PASSWORD = 'Logon-Passw0rd';
const AUTH = 'Basic ' + Buffer.from(`DEVELOPER:${PASSWORD}`).toString('base64');
const BROWSER = 'adtLs/destinations/requestBrowserBasedLogon';
const INPUT = 'adtLs/destinations/requestLogonInput';

/** GET without following redirects; `{status, location}` or rejects (5 s bound). */
function get(url, headers = {}, timeoutMs = 5000) {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(url, { headers, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, location: res.headers.location }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('delivery timed out')));
    req.on('error', reject);
  });
}

const logonUrlOf = (params) => params.params.find((p) => p.field?.key === 'logonUrl').field.value;

/** The reference SDK's browser emulation: ticket GET with Basic, then the delivery GET. */
async function emulateBrowser(logonUrl, { extraQuery = '' } = {}) {
  const first = await get(logonUrl + extraQuery, { authorization: AUTH });
  if (!first.location) throw new Error(`no redirect Location (status ${first.status})`);
  return get(first.location.replace('localhost', '127.0.0.1'));
}

/** An in-process simulated adt-ls (registerLogon only) plus the SDK end of the pipe. */
function startPair(config) {
  const toServer = new PassThrough();
  const toSdk = new PassThrough();
  const server = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toSdk));
  const sdk = createMessageConnection(new StreamMessageReader(toSdk), new StreamMessageWriter(toServer));
  const logs = [];
  const traces = [];
  const ctx = createContext({ config, connection: server, log: (l) => logs.push(l), trace: (e) => traces.push(e) });
  registerLogon(ctx);
  const states = [];
  sdk.onNotification('adtLs/destinations/logonStateChanged', (p) => states.push(p));
  server.listen();
  sdk.listen();
  return {
    ctx,
    sdk,
    logs,
    traces,
    states,
    dispose() {
      sdk.dispose();
      server.dispose();
    },
  };
}

describe('logon flow of the simulated adt-ls', () => {
  let backend;
  let dir;
  let javaToolOptions;
  const pairs = [];
  const open = (config = {}) => {
    const pair = startPair({ javaToolOptions, logonTimeoutMs: 4000, ...config });
    pairs.push(pair);
    return pair;
  };
  const setUp = async (pair, { client = '001', url = backend.url } = {}) => {
    await pair.sdk.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: join(dir, 'destinations.json'), workspaceFolderUris: [], fileUris: [] });
    return pair.sdk.sendRequest('adtLs/destinations/create', {
      id: 'ADTLS',
      protocol: 'http',
      properties: { systemUrl: url, authenticationKind: 'reentranceTicket', user: 'DEVELOPER', client, language: 'EN' },
    });
  };
  const probe = (pair) =>
    pair.ctx.backend('ADTLS').call('adtLs/repository/quickSearch', { destination: 'ADTLS', pattern: 'CL_ABAP_TYPEDESCR', maxResults: 1, types: ['CLAS/OC'] });

  before(async () => {
    backend = await startSapBackend({ tls: 'private-ca', users: { DEVELOPER: PASSWORD }, clients: ['001', '100'] });
    dir = mkdtempSync(join(tmpdir(), 'logon test '));
    const store = join(dir, 'trust store.p12');
    writeFileSync(store, createPkcs12Truststore([backend.caCertPem], 'changeit'));
    javaToolOptions = `-Djavax.net.ssl.trustStore='${store}' -Djavax.net.ssl.trustStorePassword=changeit -Djavax.net.ssl.trustStoreType=PKCS12`;
  });
  afterEach(() => {
    while (pairs.length > 0) pairs.pop().dispose();
  });
  after(async () => {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('initializeService is required and rejects empty or relative paths', async () => {
    const pair = open();
    const create = () => pair.sdk.sendRequest('adtLs/destinations/create', { id: 'X', protocol: 'http', properties: { systemUrl: backend.url, authenticationKind: 'reentranceTicket' } });
    await assert.rejects(create(), /not initialized/);
    await assert.rejects(pair.sdk.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: '', workspaceFolderUris: [], fileUris: [] }), /must not be empty/);
    await assert.rejects(pair.sdk.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: 'rel/dest.json', workspaceFolderUris: [], fileUris: [] }), /absolute/);
    assert.equal(await pair.sdk.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: join(dir, 'store-dir'), workspaceFolderUris: [], fileUris: [] }), null);
    assert.equal(await create(), 'X');
    assert.match(readFileSync(join(dir, 'store-dir', 'destinations.json'), 'utf8'), /"id": "X"/);
  });

  test('create validates protocol, HTTPS, password absence and applies defaults', async () => {
    const pair = open();
    await pair.sdk.sendRequest('adtLs/destinations/initializeService', { destinationsStorePath: join(dir, 'destinations.json'), workspaceFolderUris: [], fileUris: [] });
    const create = (protocol, properties) => pair.sdk.sendRequest('adtLs/destinations/create', { id: 'D', protocol, properties });
    await assert.rejects(create('http', { systemUrl: 'http://sap.example:8000', authenticationKind: 'reentranceTicket' }), /Only HTTPS protocol is allowed/);
    await assert.rejects(create('https', { systemUrl: backend.url, authenticationKind: 'reentranceTicket' }), /NullPointerException/);
    await assert.rejects(create('http', { systemUrl: backend.url, authenticationKind: 'reentranceTicket', password: 'x' }), /password/);
    assert.equal(await create('http', { systemUrl: backend.url, authenticationKind: 'reentranceTicket' }), 'D');
    const [listed] = await pair.sdk.sendRequest('adtLs/destinations/list');
    assert.deepEqual(listed.properties, { systemUrl: backend.url, authenticationKind: 'reentranceTicket', client: '001', language: 'EN' });
    assert.ok(!readFileSync(join(dir, 'destinations.json'), 'utf8').includes('password'));
  });

  test('ensureLoggedOn with a fire-and-forget SDK: pending -> connected, session registered', async () => {
    const pair = open();
    const requests = [];
    pair.sdk.onRequest(BROWSER, (params) => {
      requests.push(params);
      emulateBrowser(logonUrlOf(params)).catch(() => {});
      return true;
    });
    await setUp(pair);
    const info = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.deepEqual(info, { destinationId: 'ADTLS', user: 'DEVELOPER', logonState: 'connected' });
    assert.deepEqual(pair.states, [{ destinationId: 'ADTLS', logonState: 'pending' }, { destinationId: 'ADTLS', logonState: 'connected' }]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].id, 'ADTLS');
    assert.equal(requests[0].title, 'Logon to ADTLS');
    const port = new URL(backend.url).port;
    assert.match(logonUrlOf(requests[0]), new RegExp(`^https://127\\.0\\.0\\.1:${port}/sap/bc/adt/core/http/reentranceticket\\?redirect-url=http%3A%2F%2Flocalhost%3A\\d+%2Fadt%2Fredirect&_=\\d+$`));
    assert.equal((await probe(pair)).references.length, 1);
    assert.deepEqual(await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS'), info);
    assert.equal(requests.length, 1, 'a live session needs no new logon');
    assert.deepEqual(await pair.sdk.sendRequest('adtLs/destinations/getLogonInfo', 'ADTLS'), info);
    const logText = pair.logs.join('\n');
    assert.ok(!logText.includes(PASSWORD) && !/reentrance-ticket=/.test(logText));
  });

  test('after expireSessions (silent-empty) ensureLoggedOn logs on again', async () => {
    const pair = open();
    let count = 0;
    pair.sdk.onRequest(BROWSER, (params) => {
      count += 1;
      emulateBrowser(logonUrlOf(params)).catch(() => {});
      return true;
    });
    await setUp(pair);
    await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    backend.control.expireSessions({ mode: 'silent-empty' });
    assert.equal((await probe(pair)).references.length, 0);
    const again = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.equal(again.logonState, 'connected');
    assert.equal(count, 2);
    assert.equal((await probe(pair)).references.length, 1);
  });

  test('a false reply resolves disconnected with a message; getLogonInfo agrees', async () => {
    const pair = open();
    pair.sdk.onRequest(BROWSER, () => false);
    await setUp(pair);
    const info = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.equal(info.logonState, 'disconnected');
    assert.match(info.message, /answered with false/);
    assert.deepEqual(await pair.sdk.sendRequest('adtLs/destinations/getLogonInfo', 'ADTLS'), info);
  });

  test('an SDK that awaits the delivery before replying true deadlocks until the logon timeout', async () => {
    const pair = open({ logonTimeoutMs: 1500 });
    const outcome = {};
    pair.sdk.onRequest(BROWSER, async (params) => {
      try {
        const res = await emulateBrowser(logonUrlOf(params), {});
        outcome.deliveryStatus = res.status;
      } catch (err) {
        outcome.deliveryError = err.message;
      }
      return true;
    });
    await setUp(pair);
    const started = Date.now();
    const info = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.ok(Date.now() - started >= 1400);
    assert.equal(info.logonState, 'disconnected');
    assert.match(info.message, /No reentrance ticket received within 1500 ms .*waiting for the reply to requestBrowserBasedLogon/);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(outcome.deliveryStatus, undefined, 'the delivery never got an answer');
    assert.ok(outcome.deliveryError);
  });

  test('no ticket within the timeout, and stopLogonAttempt, resolve disconnected', async () => {
    const pair = open({ logon: { timeoutMs: 600 } });
    pair.sdk.onRequest(BROWSER, () => true);
    await setUp(pair);
    const info = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.match(info.message, /No reentrance ticket received within 600 ms$/);
    const slow = open({ logonTimeoutMs: 5000 });
    slow.sdk.onRequest(BROWSER, () => true);
    await setUp(slow);
    const pending = slow.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    await new Promise((r) => setTimeout(r, 100));
    await slow.sdk.sendRequest('adtLs/destinations/stopLogonAttempt', 'ADTLS');
    assert.match((await pending).message, /stopped/);
  });

  test('TLS failures surface as the logon message (PKIX; host name mismatch)', async () => {
    const untrusted = open({ javaToolOptions: '' });
    untrusted.sdk.onRequest(BROWSER, (params) => {
      emulateBrowser(logonUrlOf(params)).catch(() => {});
      return true;
    });
    await setUp(untrusted);
    const pkix = await untrusted.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.equal(pkix.logonState, 'disconnected');
    assert.match(pkix.message, /PKIX path building failed/);

    const selfSigned = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: PASSWORD } });
    try {
      const store = join(dir, 'self.p12');
      writeFileSync(store, createPkcs12Truststore([selfSigned.caCertPem]));
      const browse = (pair) =>
        pair.sdk.onRequest(BROWSER, (params) => {
          emulateBrowser(logonUrlOf(params)).catch(() => {});
          return true;
        });
      // The reference's trap: an unquoted truststore path with a space breaks the JVM trust.
      const unquoted = open({ javaToolOptions: `-Djavax.net.ssl.trustStore=${store} -Djavax.net.ssl.trustStorePassword=changeit` });
      browse(unquoted);
      await setUp(unquoted, { url: selfSigned.url });
      assert.match((await unquoted.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS')).message, /trustAnchors parameter must be non-empty/);
      const pair = open({ javaToolOptions: `-Djavax.net.ssl.trustStore="${store}" -Djavax.net.ssl.trustStorePassword=changeit` });
      browse(pair);
      await setUp(pair, { url: selfSigned.url });
      const mismatch = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
      assert.match(mismatch.message, /doesn't match any of the subject alternative names: \[sap-a4h\.sim\.internal\]/);
    } finally {
      await selfSigned.close();
    }
  });

  test('the ticket must be issued for the destination client (sap-client on the ticket GET)', async () => {
    const pair = open();
    let sendClient = false;
    pair.sdk.onRequest(BROWSER, (params) => {
      emulateBrowser(logonUrlOf(params), { extraQuery: sendClient ? '&sap-client=100' : '' }).catch(() => {});
      return true;
    });
    await setUp(pair, { client: '100' });
    const without = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.match(without.message, /issued for client 001, not 100/);
    sendClient = true;
    const withClient = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.equal(withClient.logonState, 'connected');
    assert.equal(backend.control.lastTicketRequest.sapClient, '100');
  });

  test('missing userAgentInfos in initialize breaks the backend logon', async () => {
    const pair = open();
    pair.ctx.state.initializeParams = { processId: 1, initializationOptions: {} };
    pair.sdk.onRequest(BROWSER, (params) => {
      emulateBrowser(logonUrlOf(params)).catch(() => {});
      return true;
    });
    await setUp(pair);
    const info = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
    assert.match(info.message, /NoClassDefFoundError/);
  });

  describe('requestLogonInput', () => {
    const browser = (pair) =>
      pair.sdk.onRequest(BROWSER, (params) => {
        emulateBrowser(logonUrlOf(params)).catch(() => {});
        return true;
      });
    const sha = (v) => createHash('sha256').update(v).digest('hex');

    test('socket variant: sensitive fields over TCP, nonSensitiveFields in the reply', async () => {
      const pair = open({ logonInput: 'socket' });
      let seen;
      pair.sdk.onRequest(INPUT, async (params) => {
        seen = params;
        await new Promise((resolve, reject) => {
          const socket = net.connect(params.sensitiveFieldsSocketPort, '127.0.0.1', () => socket.end(JSON.stringify({ password: 'secret' })));
          socket.on('close', resolve);
          socket.on('error', reject);
        });
        return { nonSensitiveFields: { client: '001' } };
      });
      browser(pair);
      await setUp(pair);
      const info = await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
      assert.equal(info.logonState, 'connected');
      assert.equal(seen.id, 'ADTLS');
      assert.equal(seen.title, 'Logon to ADTLS');
      assert.deepEqual(seen.params.map((p) => [p.name, p.sensitive]), [['client', false], ['password', true]]);
      assert.deepEqual(pair.ctx.state.lastLogonInput, {
        destinationId: 'ADTLS', variant: 'socket', nonSensitiveFields: { client: '001' },
        sensitiveFields: { password: '<redacted>' }, sensitiveDigests: { password: sha('secret') },
      });
      assert.ok(!JSON.stringify([pair.logs, pair.traces]).includes('secret'));
    });

    test('legacy variant and a null (cancelled) reply', async () => {
      const pair = open({ logonInput: 'legacy' });
      pair.sdk.onRequest(INPUT, (params) => ({ id: params.id, fields: params.params.map((p) => ({ key: p.field.key, value: p.field.key === 'client' ? '001' : 'pw1' })) }));
      browser(pair);
      await setUp(pair);
      assert.equal((await pair.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS')).logonState, 'connected');
      assert.equal(pair.ctx.state.lastLogonInput.sensitiveDigests.password, sha('pw1'));
      const cancelled = open({ logonInput: 'legacy' });
      cancelled.sdk.onRequest(INPUT, () => null);
      browser(cancelled);
      await setUp(cancelled);
      const info = await cancelled.sdk.sendRequest('adtLs/destinations/ensureLoggedOn', 'ADTLS');
      assert.equal(info.logonState, 'disconnected');
      assert.match(info.message, /cancelled/);
    });
  });
});
