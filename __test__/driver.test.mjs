// AdtLsDriver against the simulator: handshake, wire shapes, fault modes with the
// reference's error texts, cleanup after every failure, concurrency, server->client
// requests answered by JS handlers (sync, async, throwing, rejecting, never settling).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { AdtLsDriver } from '../index.js';
import { ROOT, simDriverOptions, tempDir, readTrace, incoming, ourTempEntries, until, timed, marker, simulatorPids } from './helpers.mjs';

const FIXTURE = JSON.parse(readFileSync(join(ROOT, 'simulator', 'fixtures', 'adt-ls-1.1.2-capabilities.json'), 'utf8'));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function driverWith(env = {}, extra = {}) {
  return new AdtLsDriver(process.execPath, simDriverOptions(env, extra));
}

async function withTrace(fn) {
  const t = tempDir();
  const file = join(t.dir, 'trace.jsonl');
  try {
    return await fn(file);
  } finally {
    t.cleanup();
  }
}

test('start: handshake with the captured 1.1.2 capabilities; dispose clears and cleans', async () => {
  const driver = driverWith({ ADTLS_SIM_ECHO_PIPE: '1' });
  const init = await driver.start(20000);
  assert.deepEqual(init.serverInfo, { name: 'ADTLS', version: '1.1.2.202608131517' });
  const { testPipe, ...caps } = init.capabilities;
  assert.deepEqual(caps, FIXTURE.lsp);
  assert.ok(testPipe.endsWith('.sock') && testPipe.length < 104, testPipe);
  assert.ok(existsSync(testPipe));
  assert.deepEqual(driver.initializeResult, init);
  await driver.dispose();
  assert.equal(driver.initializeResult, undefined);
  assert.equal(existsSync(testPipe), false, 'socket file removed');
  await driver.dispose();
  await assert.rejects(driver.sendRequest('x'), /AdtLsDriver not started/);
  await assert.rejects(driver.sendNotification('x'), /AdtLsDriver not started/);
});

test('initialize carries processId, clientInfo and userAgentInfos; initialized follows', () =>
  withTrace(async (trace) => {
    const driver = driverWith({ ADTLS_SIM_TRACE: trace });
    await driver.start(20000);
    await driver.sendRequest('sim/echo', {}); // everything before it has been read
    await driver.dispose();
    const msgs = incoming(readTrace(trace));
    const init = msgs.find((m) => m.method === 'initialize');
    assert.equal(init.id, 0, 'request ids start at 0');
    const identity = { name: 'adt-ls-native', version: PKG.version };
    assert.deepEqual(Object.keys(init.params), ['processId', 'clientInfo', 'rootUri', 'workspaceFolders', 'capabilities', 'initializationOptions']);
    assert.deepEqual(init.params, {
      processId: process.pid,
      clientInfo: identity,
      rootUri: null,
      workspaceFolders: null,
      capabilities: {},
      initializationOptions: { userAgentInfos: [identity] },
    });
    const initialized = msgs.find((m) => m.method === 'initialized');
    assert.deepEqual(initialized.params, {});
    const raw = readTrace(trace).filter((e) => e.rawHeader !== undefined);
    assert.ok(raw.length > 0);
    for (const r of raw) assert.doesNotMatch(r.rawHeader, /content-type/i, 'no Content-Type header is sent');
  }));

test('a caller data dir is kept; the owned one is removed', async () => {
  const t = tempDir();
  try {
    const dataDir = join(t.dir, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'keep.txt'), 'x');
    const driver = driverWith({}, { dataDir });
    await driver.start(20000);
    await driver.dispose();
    assert.equal(readFileSync(join(dataDir, 'keep.txt'), 'utf8'), 'x');
  } finally {
    t.cleanup();
  }
  const before = new Set(ourTempEntries());
  const driver = driverWith();
  await driver.start(20000);
  assert.ok(ourTempEntries().some((e) => !before.has(e)), 'an owned data dir and socket exist while running');
  await driver.dispose();
  assert.deepEqual(ourTempEntries().filter((e) => !before.has(e)), []);
});

test('a second start while starting or started rejects with "already started"', async () => {
  const driver = driverWith();
  const first = driver.start(20000);
  await assert.rejects(driver.start(20000), /AdtLsDriver already started/);
  await first;
  await assert.rejects(driver.start(20000), /AdtLsDriver already started/);
  await driver.dispose();
  await driver.start(20000);
  await driver.dispose();
});

test('fault: exit before connecting names the code and quotes stderr, promptly', async () => {
  const before = new Set(ourTempEntries());
  const driver = driverWith({ ADTLS_FIXTURE_MODE: 'exit' });
  const r = await timed(driver.start(20000));
  assert.equal(r.ok, false);
  assert.match(r.error.message, /^adt-ls exited \(code 2\) before LSP connect\.\n/);
  assert.match(r.error.message, /Could not create the Java Virtual Machine/);
  assert.ok(r.ms < 5000, `${r.ms}ms`);
  await assert.rejects(driver.sendRequest('x'), /AdtLsDriver not started/);
  assert.deepEqual(ourTempEntries().filter((e) => !before.has(e)), []);
});

test('fault: never connecting times out with the reference text and kills the child', async () => {
  const mark = marker();
  const driver = driverWith({ ADTLS_SIM_MODE: 'never-connect', ADTLS_TEST_MARKER: mark });
  const r = await timed(driver.start(600));
  assert.equal(r.ok, false);
  assert.equal(r.error.message, 'adt-ls LSP connect timed out after 600ms');
  assert.ok(r.ms < 6000);
  assert.deepEqual(simulatorPids(mark), []);
});

test('fault: a hanging initialize times out, then the driver is not started', async () => {
  const mark = marker();
  const driver = driverWith({ ADTLS_FIXTURE_MODE: 'hang', ADTLS_TEST_MARKER: mark });
  // Long enough for the simulator to connect on a loaded machine; the hang is in initialize.
  await assert.rejects(driver.start(4000), (e) => e.message === 'adt-ls initialize timed out after 4000ms');
  await assert.rejects(driver.sendRequest('x'), /not started/);
  assert.deepEqual(simulatorPids(mark), []);
});

test('fault: an old adt-ls is refused before initialized is sent, and shut down', () =>
  withTrace(async (trace) => {
    const mark = marker();
    const driver = driverWith({ ADTLS_FIXTURE_MODE: 'old', ADTLS_SIM_TRACE: trace, ADTLS_TEST_MARKER: mark });
    await assert.rejects(driver.start(20000), (e) => {
      assert.match(e.message, /Unsupported adt-ls version 1\.0\.1\.202606111342/);
      assert.match(e.message, /requires adt-ls >= 1\.1\.2/);
      return true;
    });
    assert.equal(incoming(readTrace(trace)).some((m) => m.method === 'initialized'), false);
    assert.ok(await until(() => simulatorPids(mark).length === 0));
  }));

test('fault: an initialize error is passed through with its code', async () => {
  const driver = driverWith({ ADTLS_SIM_MODE: 'initialize-error' });
  await assert.rejects(driver.start(20000), (e) => {
    assert.match(e.message, /simulated initialize failure/);
    assert.equal(e.code, -32603);
    return true;
  });
});

test('a missing binary rejects with ENOENT and leaves nothing behind', async () => {
  const before = new Set(ourTempEntries());
  const driver = new AdtLsDriver('/nonexistent/dir/adt-ls');
  await assert.rejects(driver.start(5000), (e) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /ENOENT/);
    assert.equal(e.code, 'ENOENT');
    return true;
  });
  await assert.rejects(driver.sendRequest('x'), /not started/);
  assert.deepEqual(ourTempEntries().filter((e) => !before.has(e)), []);
});

test('a non-executable binary rejects with EACCES and leaves nothing behind', async () => {
  const t = tempDir();
  try {
    const bin = join(t.dir, 'adt-ls');
    writeFileSync(bin, '#!/bin/sh\nexit 0\n');
    chmodSync(bin, 0o644);
    const before = new Set(ourTempEntries());
    const driver = new AdtLsDriver(bin);
    await assert.rejects(driver.start(5000), (e) => e.code === 'EACCES' && /EACCES/.test(e.message));
    assert.deepEqual(ourTempEntries().filter((e) => !before.has(e)), []);
  } finally {
    t.cleanup();
  }
});

test('adt-ls crashing rejects every in-flight request within a second, naming the exit', async () => {
  const driver = driverWith({ ADTLS_SIM_CRASH_METHOD: 'sim/slow', ADTLS_SIM_CRASH_AFTER: '0', ADTLS_SIM_CRASH_CODE: '134' });
  await driver.start(20000);
  const pending = [1, 2, 3].map(() => timed(driver.sendRequest('sim/never')));
  await new Promise((r) => setTimeout(r, 100));
  const t0 = Date.now();
  driver.sendRequest('sim/slow').catch(() => {});
  const results = await Promise.all(pending);
  for (const r of results) {
    assert.equal(r.ok, false);
    assert.match(r.error.message, /^adt-ls exited \(code 134\) while sim\/never was pending\./);
    assert.match(r.error.message, /simulated crash/);
    assert.equal(r.error.code, 'ERR_ADT_LS_EXITED');
  }
  assert.ok(Date.now() - t0 < 1500, `${Date.now() - t0}ms`);
  await assert.rejects(driver.sendRequest('later'), /adt-ls exited \(code 134\); cannot send later/);
  await driver.dispose();
});

test('a dropped pipe fails pending requests promptly even while the process lives', async () => {
  const driver = driverWith({ ADTLS_SIM_DROP_METHOD: 'sim/drop', ADTLS_SIM_DROP_AFTER: '0' });
  await driver.start(20000);
  const pending = timed(driver.sendRequest('sim/never'));
  await new Promise((r) => setTimeout(r, 50));
  driver.sendRequest('sim/drop').catch(() => {});
  const r = await pending;
  assert.equal(r.ok, false);
  assert.match(r.error.message, /adt-ls closed the LSP connection while sim\/never was pending/);
  await driver.dispose();
});

test('dispose rejects pending requests with the vscode-jsonrpc message and code', async () => {
  const driver = driverWith();
  await driver.start(20000);
  const pending = timed(driver.sendRequest('sim/never'));
  await new Promise((r) => setTimeout(r, 50));
  await driver.dispose();
  const r = await pending;
  assert.equal(r.error.message, 'Pending response rejected since connection got disposed');
  assert.equal(r.error.code, -32097);
});

test('requests time out per call without breaking the connection', async () => {
  const driver = driverWith();
  await driver.start(20000);
  await assert.rejects(driver.sendRequest('sim/never', {}, { timeoutMs: 100 }), (e) => e.code === 'ETIMEDOUT' && /timed out after 100ms/.test(e.message));
  assert.deepEqual(await driver.sendRequest('sim/echo', { still: 'alive' }), { still: 'alive' });
  await driver.dispose();
});

test('1,000 requests in flight at once all correlate', async () => {
  const driver = driverWith();
  await driver.start(20000);
  const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => driver.sendRequest('sim/echo', { i, s: `v${i}` })));
  results.forEach((r, i) => assert.deepEqual(r, { i, s: `v${i}` }));
  await driver.dispose();
});

test('params are encoded as vscode-jsonrpc does: objects as-is, anything else wrapped', () =>
  withTrace(async (trace) => {
    const driver = driverWith({ ADTLS_SIM_TRACE: trace });
    await driver.start(20000);
    await driver.sendRequest('sim/echo', 'A4H');
    await driver.sendRequest('sim/echo');
    await driver.sendRequest('sim/echo', [1, 2]);
    await driver.sendRequest('sim/echo', null);
    await driver.sendRequest('sim/echo', { a: undefined, b: 50, c: 'ü' });
    await driver.sendNotification('sim/note', 'x');
    await driver.sendRequest('sim/echo', { last: true }); // answered only after the notification was read
    await driver.dispose();
    const sent = incoming(readTrace(trace)).filter((m) => m.method === 'sim/echo' || m.method === 'sim/note');
    assert.deepEqual(
      sent.map((m) => m.params),
      [['A4H'], [null], [[1, 2]], [null], { b: 50, c: 'ü' }, ['x'], { last: true }],
    );
  }));

test('calls reach adt-ls in the order they were made (didOpen before the request that needs it)', () =>
  withTrace(async (trace) => {
    const driver = driverWith({ ADTLS_SIM_TRACE: trace });
    await driver.start(20000);
    const calls = [];
    for (let i = 0; i < 60; i++) {
      if (i % 3 === 0) calls.push(driver.sendNotification('sim/note', { i }));
      else calls.push(driver.sendRequest('sim/echo', { i }));
    }
    await Promise.all(calls);
    await driver.sendRequest('sim/echo', { i: 'last' });
    await driver.dispose();
    const order = incoming(readTrace(trace))
      .filter((m) => m.method === 'sim/echo' || m.method === 'sim/note')
      .map((m) => m.params.i);
    assert.deepEqual(order, [...Array.from({ length: 60 }, (_, i) => i), 'last']);
    const ids = incoming(readTrace(trace)).filter((m) => m.id !== undefined && m.method).map((m) => m.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'request ids increase on the wire');
  }));

test('server requests: defaults answer workspace/configuration with nulls and others with null', async () => {
  const driver = driverWith();
  await driver.start(20000);
  assert.deepEqual(await driver.sendRequest('sim/askClient', { method: 'workspace/configuration', params: { items: [{}, {}, {}] } }), { result: [null, null, null] });
  assert.deepEqual(await driver.sendRequest('sim/askClient', { method: 'workspace/configuration', params: {} }), { result: [] });
  assert.deepEqual(await driver.sendRequest('sim/askClient', { method: 'client/registerCapability', params: { registrations: [] } }), { result: null });
  await driver.dispose();
});

test('server requests: JS handlers may be sync or async, and may throw, reject, return undefined or never settle', async () => {
  const seen = [];
  const driver = driverWith(
    {},
    {
      requestHandlers: {
        'x/sync': (p) => ({ got: p }),
      },
    },
  );
  driver.setRequestHandler('x/async', async (p) => {
    seen.push(p);
    await new Promise((r) => setTimeout(r, 20));
    return true;
  });
  driver.setRequestHandler('x/throw', () => {
    throw new Error('boom');
  });
  driver.setRequestHandler('x/reject', () => Promise.reject(new Error('nope')));
  driver.setRequestHandler('x/rejectString', () => Promise.reject('plain'));
  driver.setRequestHandler('x/undefined', () => undefined);
  driver.setRequestHandler('x/never', () => new Promise(() => {}));
  driver.setRequestHandler('x/garbage', () => ({ f() {}, big: undefined, n: NaN }));
  driver.setRequestHandler('x/bigint', () => 10n);
  driver.setRequestHandler('workspace/configuration', () => ['mine']);
  await driver.start(20000);
  const ask = (method, params, timeoutMs) => driver.sendRequest('sim/askClient', { method, params, timeoutMs });
  assert.deepEqual(await ask('x/sync', { a: 1 }), { result: { got: { a: 1 } } });
  assert.deepEqual(await ask('x/async', { id: 'ADTLS' }), { result: true });
  assert.deepEqual(seen, [{ id: 'ADTLS' }]);
  assert.deepEqual(await ask('x/throw'), { error: { code: -32603, message: 'Request x/throw failed with message: boom' } });
  assert.deepEqual(await ask('x/reject'), { error: { code: -32603, message: 'Request x/reject failed with message: nope' } });
  assert.deepEqual(await ask('x/rejectString'), { error: { code: -32603, message: 'Request x/rejectString failed with message: plain' } });
  assert.deepEqual(await ask('x/undefined'), { result: null });
  assert.deepEqual(await ask('x/garbage'), { result: { n: null } });
  assert.match((await ask('x/bigint')).error.message, /^Request x\/bigint failed with message: /);
  assert.deepEqual(await ask('x/never', undefined, 200), { timedOut: true });
  assert.deepEqual(await ask('workspace/configuration', { items: [{}] }), { result: ['mine'] });
  // The connection still works after all of that.
  assert.deepEqual(await driver.sendRequest('sim/echo', { ok: 1 }), { ok: 1 });
  await driver.dispose();
});
