// Events and progress through the public API (docs/events.md): client.on/once/off with every
// event kind (logonState, health, relogon, exit on dispose and on a crash), listener
// failures, AdtLsDriver#onNotification, and onProgress over LSP `$/progress` and MCP
// `notifications/progress`, never after the call settled.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAdtLs, basic, AdtLsDriver } from '../index.js';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { simDriverOptions, until, readTrace, incoming, tempDir } from './helpers.mjs';
import { PASSWORD, CLIENT_BOUNDS, installedAdtLs, nodeAdtLs, captureLogs } from './fixtures/client/support.mjs';
import { ZCL_TEST } from './fixtures/namespaces/support.mjs';

let sap;
let logs;
const traces = tempDir('adt-ls-native-events-');
let seq = 0;

before(async () => {
  sap = await startSapBackend({ tls: 'self-signed' });
  logs = captureLogs();
});
after(async () => {
  logs.restore();
  await sap?.close();
  traces.cleanup();
});

function connectedOpts(keepAlive = false) {
  const trace = `${traces.dir}/trace-${seq++}.jsonl`;
  return {
    trace,
    opts: {
      adtLs: installedAdtLs({ ADTLS_SIM_QUIET: '0', ADTLS_SIM_TRACE: trace }),
      connection: { systemUrl: sap.url, selfSigned: true },
      auth: basic('DEVELOPER', PASSWORD),
      keepAlive,
      ...CLIENT_BOUNDS,
    },
  };
}

/** Record every event of `client` as `[type, payload]`. */
function record(client) {
  const seen = [];
  for (const type of ['logonState', 'health', 'relogon', 'exit']) client.on(type, (e) => seen.push([type, e]));
  return seen;
}

test('foundation: exit on dispose is expected and the last event; once/off/unsubscribe; listener failures are logged', async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs() });
  const seen = record(client);
  const onceSeen = [];
  client.once('exit', (e) => onceSeen.push(e));
  const removed = [];
  const unsubscribe = client.on('exit', (e) => removed.push(e));
  unsubscribe();
  unsubscribe(); // idempotent
  const viaOff = (e) => removed.push(e);
  client.on('exit', viaOff);
  client.off('exit', viaOff);
  client.on('exit', () => {
    throw new Error('listener boom');
  });
  client.on('exit', async () => {
    throw new Error('async listener boom');
  });
  const afterFailures = [];
  client.on('exit', (e) => afterFailures.push(e));

  await client.dispose();
  const exits = seen.filter(([t]) => t === 'exit');
  assert.equal(exits.length, 1, JSON.stringify(seen));
  const [, exit] = exits[0];
  assert.equal(exit.expected, true);
  assert.ok(exit.code !== null || exit.signal !== null, JSON.stringify(exit));
  assert.deepEqual(Object.keys(exit).sort(), ['code', 'expected', 'signal']);
  assert.deepEqual(seen.at(-1), ['exit', exit], 'exit is the last event');
  assert.deepEqual(onceSeen, [exit]);
  assert.deepEqual(removed, [], 'removed listeners are not called');
  assert.deepEqual(afterFailures, [exit], 'a throwing listener does not stop the others');
  assert.ok(logs.of('warn').includes("a 'exit' listener threw: listener boom"), logs.text());
  assert.ok(await until(() => logs.of('warn').includes("a 'exit' listener rejected: async listener boom")), logs.text());

  // After dispose: nothing more, and on() still answers.
  await client.dispose();
  const off = client.on('health', () => assert.fail('no event after dispose'));
  assert.equal(typeof off, 'function');
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(seen.length, exits.length + seen.filter(([t]) => t !== 'exit').length);
  assert.equal(seen.filter(([t]) => t === 'exit').length, 1, 'no second exit');
});

test('on/once/off check their arguments', async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs() });
  try {
    for (const method of ['on', 'once', 'off']) {
      assert.throws(
        () => client[method]('nope', () => {}),
        (e) =>
          e instanceof TypeError &&
          e.code === 'ERR_INVALID_ARG_VALUE' &&
          /type/.test(e.message) &&
          e.message.includes("'logonState', 'health', 'relogon', 'exit'"),
        method,
      );
      assert.throws(() => client[method]('exit', 'not a function'), { code: 'ERR_INVALID_ARG_TYPE', message: /listener/ });
      assert.throws(() => client[method](42, () => {}), { code: 'ERR_INVALID_ARG_TYPE', message: /type/ });
    }
  } finally {
    await client.dispose();
  }
});

test('an adt-ls crash emits exit with its code, not expected; dispose adds no second exit', async () => {
  const client = await createAdtLs({
    adtLs: nodeAdtLs({ ADTLS_SIM_CRASH_AFTER: '0', ADTLS_SIM_CRASH_METHOD: 'sim/boom', ADTLS_SIM_CRASH_CODE: '3' }),
  });
  const seen = record(client);
  await assert.rejects(client.raw.lsp('sim/boom'));
  assert.ok(await until(() => seen.some(([t]) => t === 'exit'), 5000), JSON.stringify(seen));
  assert.deepEqual(seen.filter(([t]) => t === 'exit'), [['exit', { code: 3, signal: null, expected: false }]]);
  await client.dispose();
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(seen.filter(([t]) => t === 'exit').length, 1);
});

test('connected: a dead session seen by the keep-alive gives health, relogon and logonState events', async () => {
  const { opts } = connectedOpts({ intervalMs: 300 });
  const client = await createAdtLs(opts);
  const seen = record(client);
  try {
    assert.ok(sap.control.expireSessions({ mode: 'logged-off' }).expired >= 1);
    const done = await until(() => seen.some(([t, e]) => t === 'relogon' && e.status === 'succeeded'), 30_000, 50);
    assert.ok(done, JSON.stringify(seen));
    const relogons = seen.filter(([t]) => t === 'relogon').map(([, e]) => e);
    assert.deepEqual(relogons.slice(0, 2), [
      { status: 'started', reason: 'keepAlive' },
      { status: 'succeeded', reason: 'keepAlive' },
    ]);
    const health = seen.filter(([t]) => t === 'health').map(([, e]) => e);
    assert.deepEqual(health[0], {
      previous: { connected: true, backendLive: true },
      current: { connected: true, backendLive: false },
    });
    assert.ok(await until(() => seen.filter(([t]) => t === 'health').length >= 2, 10_000));
    assert.deepEqual(seen.filter(([t]) => t === 'health')[1][1], {
      previous: { connected: true, backendLive: false },
      current: { connected: true, backendLive: true },
    });
    const states = seen.filter(([t]) => t === 'logonState').map(([, e]) => e);
    assert.ok(states.length >= 1, JSON.stringify(seen));
    for (const s of states) assert.equal(s.destinationId, 'ADTLS');
    assert.equal(states.at(-1).logonState, 'connected');
    assert.ok(!JSON.stringify(seen).includes(PASSWORD), 'no secret in any payload');
  } finally {
    await client.dispose();
  }
  assert.equal(seen.at(-1)[0], 'exit');
  assert.equal(seen.at(-1)[1].expected, true);
});

test('connected: relogon events for a call that found the session logged off, and for reconnect()', async () => {
  const { opts } = connectedOpts(false);
  const client = await createAdtLs(opts);
  const seen = record(client);
  try {
    sap.control.expireSessions({ mode: 'logged-off' });
    await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
    assert.deepEqual(
      seen.filter(([t]) => t === 'relogon').map(([, e]) => e),
      [
        { status: 'started', reason: 'call' },
        { status: 'succeeded', reason: 'call' },
      ],
      'delivered before the call resolved',
    );
    assert.equal(await client.reconnect(), true);
    assert.deepEqual(
      seen.filter(([t]) => t === 'relogon').map(([, e]) => e).slice(2),
      [
        { status: 'started', reason: 'reconnect' },
        { status: 'succeeded', reason: 'reconnect' },
      ],
    );
  } finally {
    await client.dispose();
  }
});

test('onProgress: a call aborted from its own progress callback gets no further report', async () => {
  // The simulator sends begin and report back to back; the first report aborts the call, which
  // rejects at once. The engine work is dropped only later, so the second report may already be
  // queued: it must not reach the callback of a call that has settled.
  const { opts } = connectedOpts(false);
  const client = await createAdtLs(opts);
  try {
    for (const [name, run] of [
      ['runAtc', (onProgress, signal) => client.quality.runAtc(ZCL_TEST, { onProgress, signal })],
      ['activate', (onProgress, signal) => client.lifecycle.activate({ ...ZCL_TEST, onProgress }, { signal })],
    ]) {
      const controller = new AbortController();
      const reports = [];
      const late = [];
      let aborted = false;
      const onProgress = (r) => {
        if (aborted) return late.push(r);
        reports.push(r);
        aborted = true;
        controller.abort(new Error('enough'));
      };
      await assert.rejects(run(onProgress, controller.signal), (e) => e.name === 'AbortError' && e.code === 'ABORT_ERR' && e.cause?.message === 'enough');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(reports.length, 1, `${name}: the first report arrived`);
      assert.deepEqual(late, [], `${name}: no report after the abort rejected the call`);
    }
    // The client keeps working, progress included.
    const after = [];
    await client.quality.runAtc(ZCL_TEST, { onProgress: (r) => after.push(r.progress) });
    assert.deepEqual(after, [0, 50, 100]);
  } finally {
    await client.dispose();
  }
});

/** Collects reports and checks none arrives after the call settled. */
function progressProbe() {
  const reports = [];
  let settled = false;
  const late = [];
  return {
    reports,
    onProgress: (r) => (settled ? late : reports).push(r),
    settle() {
      settled = true;
    },
    late,
  };
}

test('onProgress: LSP $/progress for runAtc, activate and runUnitTestsWithCoverage; MCP progress for runUnitTests', async () => {
  const { opts, trace } = connectedOpts(false);
  const client = await createAdtLs(opts);
  try {
    const atc = progressProbe();
    await client.quality.runAtc(ZCL_TEST, { onProgress: atc.onProgress });
    atc.settle();
    assert.deepEqual(atc.reports, [
      { progress: 0, total: 100, message: 'Running ATC checks' },
      { progress: 50, total: 100, message: 'Running ATC checks: half way' },
      { progress: 100, total: 100, message: 'Running ATC checks: done' },
    ]);
    const sent = incoming(readTrace(trace)).filter((m) => m.method === 'adtLs/atc/runCheck');
    assert.match(sent.at(-1).params.workDoneToken, /^adt-ls-native-progress-\d+$/);

    const progressSent = () => readTrace(trace).filter((e) => e.dir === 'out' && e.message?.method === '$/progress').length;
    assert.ok(progressSent() >= 3, 'the simulator sent $/progress for the token');

    // Without onProgress: no token, and the simulator sends no progress.
    const before = progressSent();
    await client.quality.runAtc(ZCL_TEST, { checkVariant: '' });
    const plain = incoming(readTrace(trace)).filter((m) => m.method === 'adtLs/atc/runCheck').at(-1);
    assert.equal('workDoneToken' in plain.params, false);
    assert.equal(progressSent(), before, 'no $/progress without a token');

    const act = progressProbe();
    const activated = await client.lifecycle.activate({ ...ZCL_TEST, onProgress: act.onProgress });
    act.settle();
    assert.equal(typeof activated.success, 'boolean');
    assert.deepEqual(act.reports.map((r) => r.progress), [0, 50, 100]);
    assert.equal(act.reports[0].message, 'Activating');

    const cov = progressProbe();
    await client.quality.runUnitTestsWithCoverage(ZCL_TEST, { onProgress: cov.onProgress });
    cov.settle();
    assert.deepEqual(cov.reports.map((r) => r.message), [
      'Running ABAP Unit tests',
      'Running ABAP Unit tests: half way',
      'Running ABAP Unit tests: done',
    ]);

    const unit = progressProbe();
    const result = await client.lifecycle.runUnitTests({ ...ZCL_TEST, onProgress: unit.onProgress });
    unit.settle();
    assert.equal(typeof result, 'object');
    assert.deepEqual(unit.reports, [
      { progress: 1, total: 3, message: 'abap_run_unit_tests: started' },
      { progress: 2, total: 3, message: 'abap_run_unit_tests: running' },
      { progress: 3, total: 3, message: 'abap_run_unit_tests: done' },
    ]);

    await new Promise((r) => setTimeout(r, 200));
    for (const p of [atc, act, cov, unit]) assert.deepEqual(p.late, [], 'no report after the promise settled');
  } finally {
    await client.dispose();
  }
});

test('onProgress: a throwing callback does not break the call; a non-function is refused', async () => {
  const { opts } = connectedOpts(false);
  const client = await createAdtLs(opts);
  try {
    const result = await client.quality.runAtc(ZCL_TEST, {
      onProgress: () => {
        throw new Error('progress boom');
      },
    });
    assert.equal(typeof result, 'object');
    assert.ok(logs.of('warn').includes('an onProgress callback threw: progress boom'), logs.text());
    await assert.rejects(client.quality.runAtc(ZCL_TEST, { onProgress: 'x' }), {
      code: 'ERR_INVALID_ARG_TYPE',
      message: /opts\.onProgress/,
    });
    await assert.rejects(client.lifecycle.activate({ ...ZCL_TEST, onProgress: 1 }), {
      code: 'ERR_INVALID_ARG_TYPE',
      message: /args\.onProgress/,
    });
  } finally {
    await client.dispose();
  }
});

test('AdtLsDriver#onNotification: registered before start, in order, removable, handler errors survive', async () => {
  const driver = new AdtLsDriver(process.execPath, simDriverOptions());
  const seen = [];
  const off = driver.onNotification('test/hello', (p) => seen.push(p));
  driver.onNotification('test/hello', () => {
    throw new Error('handler boom');
  });
  try {
    await driver.start();
    for (const n of [1, 2, 3]) await driver.sendRequest('sim/notifyClient', { method: 'test/hello', params: { n } });
    assert.deepEqual(seen, [{ n: 1 }, { n: 2 }, { n: 3 }], 'delivered before the request resolved, in order');
    assert.ok(logs.of('warn').includes('the notification handler for test/hello threw: handler boom'), logs.text());
    off();
    off();
    await driver.sendRequest('sim/notifyClient', { method: 'test/hello', params: { n: 4 } });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(seen.length, 3, 'no call after removal');
    assert.throws(() => driver.onNotification('x', 'nope'), { code: 'ERR_INVALID_ARG_TYPE', message: /handler/ });
    assert.throws(() => driver.onNotification(1, () => {}), { code: 'ERR_INVALID_ARG_TYPE', message: /method/ });
  } finally {
    await driver.dispose();
  }
});
