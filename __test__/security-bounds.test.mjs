// Security bounds through the public API (docs/security.md): credentials only
// to the destination's own origin over TLS (a simulated adt-ls naming a foreign / plain-http
// logon URL), `connection.systemUrl` checks, `extraCaCerts` that are not regular files, and
// timeouts that must be finite and positive everywhere (rejected, or thrown by constructors,
// with Node's codes and the option named).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { createAdtLs, basic, AdtLsDriver, AdtLsMcpClient } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { SIMULATOR_BIN, TEST_TMP } from './helpers.mjs';
import { PASSWORD, CLIENT_BOUNDS, installedAdtLs, captureLogs, nodeAdtLs } from './fixtures/client/support.mjs';

const BASIC_HEADER = Buffer.from(`DEVELOPER:${PASSWORD}`).toString('base64');

let sap;
let logs;
before(async () => {
  sap = await startSapBackend({ tls: 'self-signed' });
  logs = captureLogs();
});
after(async () => {
  logs.restore();
  await sap?.close();
});

/** `{value}` or `{error}` of a promise, or `{error: 'still pending'}` after `ms` (no hang). */
async function settled(promise, ms = 60_000) {
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ error: new Error(`still pending after ${ms} ms`) }), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error) => ({ error })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A plain HTTP server recording every request (a foreign host adt-ls might name). */
async function recorder() {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(302, { location: 'http://localhost:1/adt/redirect?reentrance-ticket=x' }).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('credentials: a logonUrl naming a foreign host over plain http fails the logon, nothing is sent there', async () => {
  const foreign = await recorder();
  try {
    const { value, error } = await settled(
      createAdtLs({
        adtLs: installedAdtLs({ ADTLS_SIM_LOGON_URL_ORIGIN: `http://127.0.0.1:${foreign.port}` }),
        connection: { systemUrl: sap.url, selfSigned: true },
        auth: basic('DEVELOPER', PASSWORD),
        ...CLIENT_BOUNDS,
      }),
    );
    if (value) await value.dispose();
    assert.ok(error, 'the logon must fail');
    assert.equal(error.code, 'ERR_CREDENTIALS_ORIGIN', error.message);
    assert.match(error.message, /not the destination's origin over TLS/);
    assert.match(error.message, /no credentials were sent/);
    assert.ok(!error.message.includes(PASSWORD) && !error.message.includes(BASIC_HEADER));
    assert.deepEqual(foreign.seen, [], 'no request reached the named host');
  } finally {
    await foreign.close();
  }
});

test('systemUrl: userinfo, other schemes and invalid ports are rejected naming the option, never echoing a password', async () => {
  const cases = [
    ['https://DEVELOPER:S3cret-in-url@sap.example.com', /embedded credentials/],
    ['https://S3cret-in-url@sap.example.com:44300/sap', /embedded credentials/],
    ['ftp://sap.example.com', /https:\/\/ or http:\/\//],
    ['gopher://sap.example.com:70', /https:\/\/ or http:\/\//],
    ['https://sap.example.com:99999', /port is from 1 to 65535/],
    ['https://sap.example.com:0', /port is from 1 to 65535/],
    ['not a url', /valid https:\/\/ or http:\/\/ URL/],
  ];
  for (const [systemUrl, why] of cases) {
    const promise = createAdtLs({
      adtLs: nodeAdtLs(),
      connection: { systemUrl, selfSigned: true },
      auth: basic('DEVELOPER', PASSWORD),
    });
    await assert.rejects(promise, (e) => {
      assert.equal(e.code, 'ERR_INVALID_ARG_VALUE', `${systemUrl}: ${e.message}`);
      assert.match(e.message, /^connection\.systemUrl must be /);
      assert.match(e.message, why);
      assert.ok(!e.message.includes('S3cret-in-url'), e.message);
      return true;
    });
  }
  assert.ok(!logs.text().includes('S3cret-in-url'));
});

test('extraCaCerts: a FIFO fails fast with a clear error naming the path', async () => {
  const fifo = join(TEST_TMP, 'ca.fifo');
  execFileSync('mkfifo', [fifo]);
  const { error } = await settled(
    createAdtLs({
      adtLs: installedAdtLs(),
      connection: { systemUrl: sap.url, extraCaCerts: [fifo] },
      auth: basic('DEVELOPER', PASSWORD),
      ...CLIENT_BOUNDS,
    }),
    15_000,
  );
  assert.ok(error, 'createAdtLs must fail, not hang');
  assert.equal(error.code, 'ERR_INVALID_ARG_VALUE');
  assert.equal(error.message, `connection.extraCaCerts[0]: ${fifo} is not a regular file`);
});

test('extraCaCerts: /dev/zero fails fast instead of being read without bound', async () => {
  const { error } = await settled(
    createAdtLs({
      adtLs: installedAdtLs(),
      connection: { systemUrl: sap.url, extraCaCerts: ['/dev/zero'] },
      auth: basic('DEVELOPER', PASSWORD),
      ...CLIENT_BOUNDS,
    }),
    15_000,
  );
  assert.ok(error, 'createAdtLs must fail');
  assert.equal(error.code, 'ERR_INVALID_ARG_VALUE');
  assert.equal(error.message, 'connection.extraCaCerts[0]: /dev/zero is not a regular file');
});

const BAD_TIMEOUTS = [-1, 0, NaN, Infinity, -Infinity, 1e308, 2 ** 31];

function outOfRange(name) {
  return (e) => {
    assert.equal(e.code, 'ERR_OUT_OF_RANGE', e.message);
    assert.match(e.message, new RegExp(`^${name.replace('.', '\\.')} must be a finite number of milliseconds > 0 and <= 2147483647, received `));
    return true;
  };
}

test('timeouts: createAdtLs rejects non-finite, non-positive and timer-overflowing values naming the option', async () => {
  const optionsWith = {
    'adtLs.startTimeoutMs': (v) => ({ adtLs: { ...nodeAdtLs(), startTimeoutMs: v } }),
    'adtLs.requestTimeoutMs': (v) => ({ adtLs: { ...nodeAdtLs(), requestTimeoutMs: v } }),
    mcpTimeoutMs: (v) => ({ adtLs: nodeAdtLs(), mcpTimeoutMs: v }),
    logonTimeoutMs: (v) => ({ adtLs: nodeAdtLs(), logonTimeoutMs: v }),
  };
  for (const [name, make] of Object.entries(optionsWith)) {
    for (const bad of BAD_TIMEOUTS) {
      await assert.rejects(createAdtLs(make(bad)), outOfRange(name), `${name}=${bad}`);
    }
    await assert.rejects(createAdtLs(make('soon')), (e) => {
      assert.equal(e.code, 'ERR_INVALID_ARG_TYPE');
      assert.equal(e.message, `${name} must be a number of milliseconds, received type string`);
      return true;
    });
  }
  const e = await createAdtLs(optionsWith.mcpTimeoutMs(-1)).catch((err) => err);
  assert.match(e.message, /received -1$/);
  const nan = await createAdtLs(optionsWith.mcpTimeoutMs(NaN)).catch((err) => err);
  assert.match(nan.message, /received NaN$/);
});

test('timeouts: AdtLsDriver constructor throws, start and sendRequest reject, before anything is spawned', async () => {
  for (const bad of [-1, 0, NaN]) {
    assert.throws(
      () => new AdtLsDriver(process.execPath, { extraArgs: [SIMULATOR_BIN], requestTimeoutMs: bad }),
      outOfRange('opts.requestTimeoutMs'),
    );
  }
  const driver = new AdtLsDriver(process.execPath, { extraArgs: [SIMULATOR_BIN] });
  try {
    for (const bad of [-1, NaN, Infinity, 1e308]) {
      await assert.rejects(driver.start(bad), outOfRange('timeoutMs'), `start(${bad})`);
    }
    assert.equal(driver.initializeResult, undefined, 'nothing was started');
    for (const bad of [NaN, -1, 0, Infinity]) {
      await assert.rejects(driver.sendRequest('x/y', {}, { timeoutMs: bad }), outOfRange('opts.timeoutMs'));
    }
  } finally {
    await driver.dispose();
  }
});

test('timeouts: AdtLsMcpClient constructor throws, callTool and request reject', async () => {
  // A token that is no English word: tokens are registered as secrets and masked in every
  // later message of the process (Bun runs all test files in one process).
  const token = 'mcp-bounds-7d41';
  for (const bad of [-1, 0, NaN, Infinity]) {
    assert.throws(() => new AdtLsMcpClient('http://127.0.0.1:9/mcp', token, undefined, bad), outOfRange('timeoutMs'));
  }
  const client = new AdtLsMcpClient('http://127.0.0.1:9/mcp', token, undefined, 1000);
  await assert.rejects(client.callTool('t', {}, { timeoutMs: NaN }), outOfRange('opts.timeoutMs'));
  await assert.rejects(client.request('ping', undefined, { timeoutMs: -5 }), outOfRange('opts.timeoutMs'));
});

test('timeouts: client methods with opts.timeoutMs reject non-finite, non-positive and oversized values', async () => {
  const client = await createAdtLs({
    adtLs: installedAdtLs(),
    connection: { systemUrl: sap.url, selfSigned: true },
    auth: basic('DEVELOPER', PASSWORD),
    keepAlive: false,
    ...CLIENT_BOUNDS,
  });
  try {
    const ref = { name: 'ZCL_TEST', objectType: 'CLAS/OC' };
    // NaN and Infinity cross as JSON null here (the reference's `??` default applies: finite).
    for (const bad of [-1, 0, 1e308, 2 ** 31]) {
      await assert.rejects(client.quality.runAtc(ref, { timeoutMs: bad }), outOfRange('opts.timeoutMs'), `runAtc ${bad}`);
      await assert.rejects(client.quality.runUnitTestsWithCoverage(ref, { timeoutMs: bad }), outOfRange('opts.timeoutMs'));
      await assert.rejects(
        client.navigation.findReferences(ref, { line: 1, character: 1 }, { timeoutMs: bad }),
        outOfRange('opts.timeoutMs'),
      );
    }
  } finally {
    await client.dispose();
  }
});
