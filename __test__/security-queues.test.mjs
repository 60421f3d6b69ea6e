// Queues a hostile adt-ls can fill, and messages nested too deeply
// (docs/security.md, "Hostile peers: queues" and "nesting"), on both readers (the JS-thread
// reader is Node's default on Unix; ADT_LS_NATIVE_JS_THREAD_READS=0, Bun and Windows use the
// Tokio reader). The simulated adt-ls floods straight to the socket (simulator hooks
// sim/flood, sim/stopReading, sim/deep*) while this process's JS thread is busy: backpressure
// must reach the peer (its writes block), memory must stay bounded, nothing that answers one
// of our requests may be lost, and what is refused is reported. No timing is asserted: the
// waits only bound how long a broken build takes to fail.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdtLsDriver, setLogger } from '../index.js';
import { simDriverOptions, TEST_TMP } from './helpers.mjs';

const SWITCH = 'ADT_LS_NATIVE_JS_THREAD_READS';
/** Growth of the process's peak RSS over its idle RSS that a bounded client stays under: the
 * floods below grow an unbounded one by 250-700 MB; the bounded one by about 30-40 MB,
 * most of it the JS engine's own garbage from handling the flood. */
const RSS_BOUND_MB = 150;

let run = 0;
const file = (name) => join(TEST_TMP, `${name}-${process.pid}-${run++}`);

/** This process's resident set, MB. */
function rssMb() {
  return process.memoryUsage.rss() / (1024 * 1024);
}

/** Peak RSS since `resetPeak()`, MB: Linux's VmHWM when it can be reset, else sampled. */
let sampledPeak = 0;
let hwm = false;
function resetPeak() {
  sampledPeak = rssMb();
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    hwm = true;
  } catch {
    hwm = false;
  }
}
function peakMb() {
  sampledPeak = Math.max(sampledPeak, rssMb());
  if (!hwm) return sampledPeak;
  const m = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s*(\d+) kB/m);
  return m ? Math.max(sampledPeak, Number(m[1]) / 1024) : sampledPeak;
}

/** Keep the JS thread busy until the peer's flood is done or its writes stopped moving for a
 * second (it is blocked); the peer's last status. */
function busyWhileFlooding(statusFile) {
  const deadline = Date.now() + 60_000;
  while (!existsSync(statusFile)) assert.ok(Date.now() < deadline, 'the peer never started its flood');
  let last = -1;
  let since = Date.now();
  for (;;) {
    sampledPeak = Math.max(sampledPeak, rssMb());
    let status;
    try {
      status = JSON.parse(readFileSync(statusFile, 'utf8'));
    } catch {
      continue; // read while the peer was writing it
    }
    if (status.done) return status;
    if (status.written !== last) {
      last = status.written;
      since = Date.now();
    } else if (Date.now() - since > 1000) {
      return status;
    }
  }
}

function depthOf(value) {
  let depth = 0;
  for (; Array.isArray(value); value = value[0]) depth++;
  return depth;
}

async function eventually(what, done, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A started driver on the simulator with the reader `switchValue` selects; log lines kept. */
async function withDriver(switchValue, fn) {
  const lines = [];
  const keep = (level) => (m) => lines.push({ level, m });
  setLogger({ debug() {}, info: keep('info'), warn: keep('warn'), error: keep('error') });
  const previous = process.env[SWITCH];
  if (switchValue === undefined) delete process.env[SWITCH];
  else process.env[SWITCH] = switchValue;
  let driver;
  try {
    driver = new AdtLsDriver(process.execPath, simDriverOptions({ ADTLS_SIM_NOISE: 'false', ADTLS_SIM_STARTUP_REQUESTS: 'false' }));
  } finally {
    if (previous === undefined) delete process.env[SWITCH];
    else process.env[SWITCH] = previous;
  }
  try {
    await driver.start(30_000);
    for (let i = 0; i < 200; i++) await driver.sendRequest('sim/echo', { i });
    return await fn(driver, lines);
  } finally {
    await driver.dispose();
    setLogger({ debug() {}, info() {}, warn() {}, error() {} });
  }
}

for (const switchValue of [undefined, '0']) {
  const label = switchValue === undefined ? 'default reader' : `${SWITCH}=0`;

  test(`${label}: a notification flood while JS is busy blocks the peer, memory stays bounded, every notification arrives`, async () => {
    await withDriver(switchValue, async (driver) => {
      const count = 300_000;
      let seen = 0;
      let ordered = true;
      driver.onNotification('window/logMessage', (p) => {
        if (p.n !== 1) ordered = false;
        seen++;
      });
      const statusFile = file('log-flood');
      const idle = rssMb();
      resetPeak();
      const params = { type: 4, n: 1, message: 'ABAP object activated: ZCL_FLOOD_TEST in package $TMP' };
      const done = driver.sendRequest('sim/flood', { method: 'window/logMessage', params, count, statusFile });
      const status = busyWhileFlooding(statusFile);
      assert.equal(status.done, false, `the peer wrote all ${count} while nobody on our side was free to take them`);
      assert.ok(status.written < count, JSON.stringify(status));
      assert.deepEqual(await done, { written: count });
      await eventually('every notification', () => seen === count);
      assert.ok(ordered);
      const growth = peakMb() - idle;
      assert.ok(growth < RSS_BOUND_MB, `peak RSS grew by ${growth.toFixed(0)} MB (bound ${RSS_BOUND_MB})`);
    });
  });

  test(`${label}: server requests held by a JS handler stop the reading; released, all are answered`, async () => {
    await withDriver(switchValue, async (driver) => {
      const count = 10_000;
      const waiting = [];
      let asked = 0;
      driver.setRequestHandler('x/hold', () => {
        asked++;
        return new Promise((resolve) => waiting.push(resolve));
      });
      const statusFile = file('ask-flood');
      const done = driver.sendRequest('sim/flood', { method: 'x/hold', count, kind: 'request', statusFile });
      // Wait (not busy) until the peer is blocked: our handlers hold their requests.
      let last = -1;
      let since = Date.now();
      await eventually('the peer to block', () => {
        if (!existsSync(statusFile)) return false;
        const { written, done: finished } = JSON.parse(readFileSync(statusFile, 'utf8') || '{}');
        assert.ok(!finished, 'the peer wrote every request although none was answered');
        if (written !== last) {
          last = written;
          since = Date.now();
          return false;
        }
        return Date.now() - since > 1000;
      });
      // At most 256 wait for their answers, plus what one read (64 KiB) brought.
      assert.ok(asked <= 256 + 1024, `${asked} handlers called`);
      // Answer everything (also what arrives from now on).
      const release = setInterval(() => waiting.splice(0).forEach((r) => r(null)), 1);
      try {
        assert.deepEqual(await done, { written: count });
        await eventually('every request', () => asked === count);
      } finally {
        clearInterval(release);
        waiting.splice(0).forEach((r) => r(null));
      }
      assert.deepEqual(await driver.sendRequest('sim/echo', { after: 1 }), { after: 1 });
    });
  });

  test(`${label}: while adt-ls does not read, requests are refused with ERR_ADT_LS_NOT_READING; once it reads they go through`, async () => {
    await withDriver(switchValue, async (driver) => {
      const untilFile = file('resume');
      await driver.sendRequest('sim/stopReading', { untilFile });
      const idle = rssMb();
      resetPeak();
      // Up to 200,000 calls, in batches of 10,000; once calls are refused, one batch more.
      let sent = 0;
      let answered = 0;
      let refused = 0;
      let wrong = null;
      let refusedAfter = null;
      for (let i = 0; i < 200_000 && (refusedAfter === null || i < refusedAfter + 10_000); i++) {
        sent++;
        driver.sendRequest('sim/echo', { i }).then(
          (v) => {
            if (v.i === i) answered++;
            else wrong ??= `answer ${JSON.stringify(v)} for ${i}`;
          },
          (e) => {
            if (e.code !== 'ERR_ADT_LS_NOT_READING' || !/^adt-ls is not reading what is sent to it: \d+ messages \(\d+ bytes\) are waiting to be written; sim\/echo was not sent\.$/.test(e.message)) {
              wrong ??= `${e.code}: ${e.message}`;
            }
            refused++;
          },
        );
        if (i % 10_000 === 9_999) {
          await new Promise((r) => setImmediate(r));
          if (refused > 0) refusedAfter ??= i;
        }
      }
      assert.ok(refused > 0, `none of ${sent} calls was refused while adt-ls read nothing`);
      await new Promise((r) => setTimeout(r, 100));
      const growth = peakMb() - idle;
      writeFileSync(untilFile, '');
      await eventually('every request to settle', () => answered + refused === sent || wrong !== null);
      assert.equal(wrong, null);
      assert.ok(refused > 0 && answered > 0, `answered ${answered}, refused ${refused}`);
      assert.ok(answered <= 32_768 + 20_000, `${answered} requests were accepted while adt-ls read nothing`);
      assert.ok(growth < RSS_BOUND_MB, `peak RSS grew by ${growth.toFixed(0)} MB (bound ${RSS_BOUND_MB})`);
      assert.deepEqual(await driver.sendRequest('sim/echo', { again: true }), { again: true });
    });
  });

  test(`${label}: messages nested too deeply are refused and reported; the connection goes on`, async () => {
    await withDriver(switchValue, async (driver, lines) => {
      await assert.rejects(driver.sendRequest('sim/deepResult', { depth: 1_000_000 }), (e) => {
        assert.equal(e.code, 'ERR_JSON_TOO_DEEP');
        assert.equal(e.message, 'adt-ls sent a response to sim/deepResult nested deeper than 100 levels; it was refused.');
        assert.equal(e.method, 'sim/deepResult');
        return true;
      });
      const notes = [];
      driver.onNotification('x/deep', (p) => notes.push(p));
      assert.equal(await driver.sendRequest('sim/deepNotify', { method: 'x/deep', depth: 1_000_000 }), null);
      driver.setRequestHandler('x/deepAsk', () => 'never called');
      const asked = await driver.sendRequest('sim/deepAsk', { method: 'x/deepAsk', depth: 1_000_000 });
      assert.deepEqual(asked, {
        reply: { error: { code: -32600, message: 'Request x/deepAsk was refused: the message is nested deeper than 100 levels' } },
      });
      // At the limit a message still parses: the notification's frame is level 1.
      assert.equal(await driver.sendRequest('sim/deepNotify', { method: 'x/deep', depth: 99 }), null);
      await driver.sendRequest('sim/echo', {});
      await eventually('the notification at the limit', () => notes.length === 1);
      assert.equal(depthOf(notes[0]), 99, 'delivered whole');
      const warnings = lines.filter((l) => l.level === 'warn').map((l) => l.m);
      for (const expected of [
        "lsp: adt-ls's response to sim/deepResult was refused: the message is nested deeper than 100 levels",
        "lsp: adt-ls's notification x/deep was dropped: the message is nested deeper than 100 levels",
        "lsp: adt-ls's request x/deepAsk was refused with a JSON-RPC error: the message is nested deeper than 100 levels",
      ]) {
        assert.ok(warnings.includes(expected), `${expected}\nin ${warnings.join('\n')}`);
      }
    });
  });

  test(`${label}: a flood of log lines while JS is busy is bounded: dropped lines are counted in one warning`, async () => {
    await withDriver(switchValue, async (driver, lines) => {
      const count = 25_000;
      const statusFile = file('warn-flood');
      // Every one of these notifications is refused with a warning line.
      const done = driver.sendRequest('sim/flood', { method: 'x/deepNote', depth: 150, count, statusFile });
      busyWhileFlooding(statusFile);
      assert.deepEqual(await done, { written: count });
      await eventually('every line or its count', () => {
        const warns = lines.filter((l) => l.level === 'warn').map((l) => l.m);
        const kept = warns.filter((m) => m.startsWith("lsp: adt-ls's notification x/deepNote was dropped")).length;
        const dropped = warns
          .map((m) => m.match(/^adt-ls-native: (\d+) log lines were dropped because the logger fell behind/))
          .filter(Boolean)
          .reduce((sum, m) => sum + Number(m[1]), 0);
        return kept + dropped === count;
      });
      const kept = lines.filter((l) => l.m.startsWith("lsp: adt-ls's notification x/deepNote")).length;
      assert.ok(kept >= 10_000 || kept === count, `${kept} lines delivered`);
    });
  });
}
