// Replies read on the JS thread (Node on Unix; docs/performance.md): which reader a driver
// uses is logged at debug level; Bun and ADT_LS_NATIVE_JS_THREAD_READS=0 keep the Tokio
// reader. Both paths answer requests in order and concurrently, run server->client request
// handlers and notifications, reject in-flight calls at once when adt-ls dies or drops the
// pipe, and let the process exit once nothing is pending (exit*.test.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdtLsDriver, setLogger } from '../index.js';
import { simDriverOptions, timed } from './helpers.mjs';

const JS_THREAD_LINE = 'lsp: reading adt-ls on the JS thread';
const onNodeUnix = !process.versions.bun && process.platform !== 'win32';
const SWITCH = 'ADT_LS_NATIVE_JS_THREAD_READS';

/** A driver created with the switch at `switchValue` (undefined: unset). */
function makeDriver(switchValue, simEnv = {}) {
  const previous = process.env[SWITCH];
  if (switchValue === undefined) delete process.env[SWITCH];
  else process.env[SWITCH] = switchValue;
  try {
    return new AdtLsDriver(process.execPath, simDriverOptions(simEnv));
  } finally {
    if (previous === undefined) delete process.env[SWITCH];
    else process.env[SWITCH] = previous;
  }
}

/** A started simulator driver created with the switch at `switchValue`; debug lines kept. */
async function withDriver(switchValue, simEnv, fn) {
  const lines = [];
  setLogger({ debug: (m) => lines.push(m), info() {}, warn() {}, error() {} });
  const driver = makeDriver(switchValue, simEnv);
  try {
    await driver.start(20000);
    return await fn(driver, lines);
  } finally {
    await driver.dispose();
    setLogger({ debug() {}, info() {}, warn() {}, error() {} });
  }
}

for (const switchValue of [undefined, '0', '1']) {
  const label = switchValue === undefined ? 'default' : `${SWITCH}=${switchValue}`;
  const jsThread = switchValue !== '0' && onNodeUnix;

  test(`${label}: replies are read on ${jsThread ? 'the JS thread' : 'a runtime thread'}; sequential and concurrent calls answer in order`, async () => {
    await withDriver(switchValue, {}, async (driver, lines) => {
      for (let i = 0; i < 100; i++) {
        assert.deepEqual(await driver.sendRequest('sim/echo', { i }), { i });
      }
      const many = await Promise.all(Array.from({ length: 300 }, (_, i) => driver.sendRequest('sim/echo', { i })));
      assert.deepEqual(many, Array.from({ length: 300 }, (_, i) => ({ i })));
      const big = 'x'.repeat(3 * 1024 * 1024);
      assert.equal((await driver.sendRequest('sim/echo', { big })).big.length, big.length);
      assert.equal(lines.includes(JS_THREAD_LINE), jsThread, lines.join('\n'));
    });
  });

  test(`${label}: server requests reach JS handlers and notifications arrive`, async () => {
    await withDriver(switchValue, {}, async (driver) => {
      driver.setRequestHandler('client/ask', async (p) => ({ got: p }));
      const notes = [];
      driver.onNotification('client/note', (p) => notes.push(p));
      const answer = await driver.sendRequest('sim/askClient', { method: 'client/ask', params: { q: 1 } });
      assert.deepEqual(answer, { result: { got: { q: 1 } } });
      await driver.sendRequest('sim/notifyClient', { method: 'client/note', params: { n: 2 } });
      await driver.sendRequest('sim/echo', {});
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(notes, [{ n: 2 }]);
    });
  });

  test(`${label}: adt-ls crashing rejects in-flight calls at once`, async () => {
    const env = { ADTLS_SIM_CRASH_METHOD: 'sim/slow', ADTLS_SIM_CRASH_AFTER: '0', ADTLS_SIM_CRASH_CODE: '134' };
    await withDriver(switchValue, env, async (driver) => {
      const pending = [1, 2].map(() => timed(driver.sendRequest('sim/never')));
      await new Promise((r) => setTimeout(r, 50));
      const t0 = Date.now();
      driver.sendRequest('sim/slow').catch(() => {});
      for (const r of await Promise.all(pending)) {
        assert.equal(r.ok, false);
        assert.match(r.error.message, /^adt-ls exited \(code 134\) while sim\/never was pending\./);
      }
      assert.ok(Date.now() - t0 < 1500, `${Date.now() - t0}ms`);
    });
  });

  test(`${label}: a dropped pipe fails a pending call while the process lives`, async () => {
    await withDriver(switchValue, { ADTLS_SIM_DROP_METHOD: 'sim/drop', ADTLS_SIM_DROP_AFTER: '0' }, async (driver) => {
      const pending = timed(driver.sendRequest('sim/never'));
      await new Promise((r) => setTimeout(r, 50));
      driver.sendRequest('sim/drop').catch(() => {});
      const r = await pending;
      assert.equal(r.ok, false);
      assert.match(r.error.message, /adt-ls closed the LSP connection while sim\/never was pending/);
    });
  });

  test(`${label}: dispose rejects a pending call at once`, async () => {
    const driver = makeDriver(switchValue);
    await driver.start(20000);
    const pending = timed(driver.sendRequest('sim/never'));
    await driver.dispose();
    const r = await pending;
    assert.equal(r.ok, false);
    assert.match(r.error.message, /Pending response rejected since connection got disposed/);
  });

  test(`${label}: a continuation of a reply may dispose the driver, and the process stays healthy`, async () => {
    for (let round = 0; round < 3; round++) {
      const driver = makeDriver(switchValue);
      await driver.start(20000);
      const other = timed(driver.sendRequest('sim/never'));
      await driver.sendRequest('sim/echo', { round }).then(() => driver.dispose());
      const r = await other;
      assert.equal(r.ok, false);
      await assert.rejects(driver.sendRequest('sim/echo', {}), /not started/);
    }
  });
}
