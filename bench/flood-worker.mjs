// One hostile-peer flood against one AdtLsDriver in this process (bench/floods.mjs runs the
// matrix): the simulated adt-ls (always run by Node, `FLOOD_PEER_NODE`) floods or stalls while
// this process's JS thread is busy, and the process's peak RSS (VmHWM, reset after warm-up)
// is reported against its idle RSS. Prints one JSON line.
//
//   bun|node bench/flood-worker.mjs --scenario log|progress|requests|replies|deep [--count N]
//
// Scenarios (docs/security.md, "Hostile peers: queues"):
//   log       N window/logMessage notifications to a driver.onNotification handler
//   progress  N $/progress notifications to a driver.onNotification handler
//   requests  N server requests to a setRequestHandler handler (answered null)
//   replies   adt-ls stops reading; N sim/echo requests are sent in batches of 10,000
//   deep      one response nested N levels deep (default 10^7, 20 MB)
// The JS thread spins (reading the peer's status file) until the peer has written
// everything or its writes have not moved for a second, then lets the flood drain.

import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SIMULATOR = join(HERE, '..', 'simulator', 'bin', 'adt-ls.mjs');
const { values } = parseArgs({
  options: { scenario: { type: 'string' }, count: { type: 'string' } },
});
const scenario = values.scenario;
const DEFAULT_COUNT = { log: 1_000_000, progress: 1_000_000, requests: 200_000, replies: 500_000, deep: 10_000_000 };
const count = Number(values.count ?? DEFAULT_COUNT[scenario]);
const dir = mkdtempSync(join(tmpdir(), 'adt-ls-flood-'));

function vm(field) {
  const m = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s*(\\d+) kB`, 'm'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Spin until the peer's flood is done or its writes have not moved for a second. */
function busyWhileFlooding(statusFile) {
  const start = Date.now();
  while (!existsSync(statusFile)) {
    if (Date.now() - start > 30_000) throw new Error('the peer never started');
  }
  let last = -1;
  let since = Date.now();
  for (;;) {
    let status;
    try {
      status = JSON.parse(readFileSync(statusFile, 'utf8'));
    } catch {
      continue; // caught mid-write
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

async function eventually(what, done) {
  const deadline = Date.now() + 600_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function flood(driver, { method, params, kind, onFlood }) {
  const statusFile = join(dir, 'status.json');
  const done = driver.sendRequest('sim/flood', { method, params, count, kind, statusFile }, { timeoutMs: 600_000 });
  const whileBusy = busyWhileFlooding(statusFile);
  await done;
  await eventually('the flood to be delivered', onFlood);
  return { writtenWhileBusy: whileBusy.written, doneWhileBusy: whileBusy.done };
}

async function replies(driver) {
  const untilFile = join(dir, 'resume');
  await driver.sendRequest('sim/stopReading', { untilFile });
  let sent = 0;
  let refused = 0;
  let answered = 0;
  let other = null;
  for (let i = 0; i < count; i++) {
    driver.sendRequest('sim/echo', { i }).then(
      () => answered++,
      (e) => (e.code === 'ERR_ADT_LS_NOT_READING' ? refused++ : (other ??= `${e.code}: ${e.message}`)),
    );
    sent++;
    if (i % 10_000 === 9_999) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 100));
  const peakStalled = vm('VmHWM');
  writeFileSync(untilFile, '');
  await eventually('every request to settle', () => answered + refused >= sent || other);
  return { sent, refused, answered, other, peakWhileStalledMb: peakStalled };
}

async function deep(driver) {
  const t0 = Date.now();
  const outcome = await driver.sendRequest('sim/deepResult', { depth: count }, { timeoutMs: 600_000 }).then(
    (v) => ({ resolved: typeof v }),
    (e) => ({ code: e.code }),
  );
  return { ...outcome, ms: Date.now() - t0 };
}

const addon = process.env.ADT_LS_NATIVE_BENCH_ADDON;
const mod = addon ? createRequire(import.meta.url)(addon) : await import('../index.js');
const peer = process.env.FLOOD_PEER_NODE || 'node';
const driver = new mod.AdtLsDriver(peer, {
  extraArgs: [SIMULATOR],
  extraEnv: { ADTLS_SIM_QUIET: '1', ADTLS_SIM_NOISE: 'false', ADTLS_SIM_STARTUP_REQUESTS: 'false' },
});
try {
  await driver.start(60_000);
  for (let i = 0; i < 2000; i++) await driver.sendRequest('sim/echo', { i });
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const idle = vm('VmRSS');
  try {
    writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
  } catch {
    // not Linux, or not allowed: the peak then includes the start-up
  }
  let seen = 0;
  const started = Date.now();
  let detail;
  if (scenario === 'log' || scenario === 'progress') {
    const method = scenario === 'log' ? 'window/logMessage' : '$/progress';
    const params =
      scenario === 'log'
        ? { type: 4, message: 'ABAP object activated: ZCL_FLOOD_TEST_OBJECT in package $TMP (inactive version)' }
        : { token: 'flood', value: { kind: 'report', percentage: 42, message: 'Checking ZCL_FLOOD_TEST_OBJECT' } };
    driver.onNotification(method, () => seen++);
    detail = await flood(driver, { method, params, onFlood: () => seen >= count });
  } else if (scenario === 'requests') {
    driver.setRequestHandler('x/flood', async () => {
      seen++;
      return null;
    });
    detail = await flood(driver, { method: 'x/flood', params: { n: 1 }, kind: 'request', onFlood: () => seen >= count });
  } else if (scenario === 'replies') {
    detail = await replies(driver);
  } else if (scenario === 'deep') {
    detail = await deep(driver);
  } else {
    throw new Error(`unknown scenario ${scenario}`);
  }
  const peak = vm('VmHWM');
  console.log(
    JSON.stringify({
      scenario,
      count,
      runtime: process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`,
      idleMb: Math.round(idle),
      peakMb: Math.round(peak),
      growthMb: Math.round(peak - idle),
      seconds: (Date.now() - started) / 1000,
      ...detail,
    }),
  );
} finally {
  await driver.dispose();
  rmSync(dir, { recursive: true, force: true });
}
