// One measurement of the hot path for ONE client, in a process of its own (so RSS, heap, CPU
// and thread counts belong to that client alone). Spawned by bench/hot-path.mjs:
//   node --expose-gc bench/hot-path-worker.mjs --lib ours|ref|floor [--warmup 5000]
//        [--calls 5000] [--inflight 20000] [--large-reps 7]
// Prints one JSON line: { lib, seq: { wallUs, cpuUs, ctxSwitches }, memory: { rssMb, heapMb },
// inflight: { callsPerSec }, large: { medianMs, items } } (all per call where it says so).
// Order: start, `--warmup` sequential echoes (the JS clients need thousands of calls before
// their JIT settles: with only 500 their CPU per call was 1.6-1.8x their steady state), memory
// snapshot (so "after 5,000 calls" means exactly that), a concurrent and a large warm-up,
// then the measured phases.

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FloorClient } from './floor-client.mjs';

const { values } = parseArgs({
  options: {
    lib: { type: 'string' },
    warmup: { type: 'string', default: '5000' },
    calls: { type: 'string', default: '5000' },
    inflight: { type: 'string', default: '20000' },
    'large-reps': { type: 'string', default: '7' },
  },
});
const WARMUP = Number(values.warmup);
const CALLS = Number(values.calls);
const INFLIGHT = Number(values.inflight);
const LARGE_REPS = Number(values['large-reps']);
const PEER = fileURLToPath(new URL('./lsp-peer.mjs', import.meta.url));
const LARGE_METHOD = 'bench/large';

// @marianfoo/adt-ls 0.5.0 fires some writes without awaiting them; a dispose that ends the
// peer first makes vscode-jsonrpc throw EPIPE from a socket callback (see bench/run.mjs).
process.on('uncaughtException', (e) => {
  if (e?.code === 'EPIPE' || /socket has been ended/.test(e?.message ?? '')) return;
  throw e;
});

async function makeClient(lib) {
  const opts = { extraArgs: [PEER] };
  if (lib === 'floor') return new FloorClient(process.execPath, opts);
  // ADT_LS_NATIVE_BENCH_ADDON: a .node file to measure instead of the package's loader (the CI
  // lane measures the release binary `.ci/package` built). `ours-nostack` is ours with
  // ADT_LS_NATIVE_CALLER_STACKS=0 in its environment (set by bench/hot-path.mjs).
  const addon = process.env.ADT_LS_NATIVE_BENCH_ADDON;
  const ours = () => (addon ? createRequire(import.meta.url)(addon) : import('../index.js'));
  const mod = lib.startsWith('ours') ? await ours() : await import('@marianfoo/adt-ls');
  return new mod.AdtLsDriver(process.execPath, opts);
}

/** Voluntary + involuntary context switches of every live thread of this process (Linux). */
function contextSwitches() {
  if (process.platform !== 'linux') return NaN;
  let sum = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const status = readFileSync(`/proc/self/task/${tid}/status`, 'latin1');
      for (const m of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s*(\d+)/gm)) sum += Number(m[1]);
    } catch {
      // the thread ended between readdir and read: its switches are lost either way
    }
  }
  return sum;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => globalThis.gc?.();

const client = await makeClient(values.lib);
await client.start();
try {
  // Warm-up: JIT, buffers, thread pools; then memory after exactly WARMUP calls (heap after a
  // full GC when --expose-gc).
  for (let i = 0; i < WARMUP; i++) await client.sendRequest('bench/echo', { i });
  gc();
  const mem = process.memoryUsage();
  const memory = { rssMb: mem.rss / 2 ** 20, heapMb: mem.heapUsed / 2 ** 20 };
  await Promise.all(Array.from({ length: 2000 }, (_, i) => client.sendRequest('bench/echo', { i })));
  await client.sendRequest(LARGE_METHOD, {});

  // Sequential echo: one call in flight at a time.
  gc();
  const cs0 = contextSwitches();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await client.sendRequest('bench/echo', { i });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cs = contextSwitches() - cs0;
  const seq = {
    wallUs: (wallMs * 1000) / CALLS,
    cpuUs: (cpu.user + cpu.system) / CALLS,
    ctxSwitches: cs / CALLS,
  };

  // Throughput with INFLIGHT requests in flight at once (median of 3).
  const rates = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    await Promise.all(Array.from({ length: INFLIGHT }, (_, i) => client.sendRequest('bench/echo', { i })));
    rates.push(INFLIGHT / ((performance.now() - t) / 1000));
  }

  // A ~5 MB result, parsed into JS objects (median of LARGE_REPS).
  const times = [];
  let items = 0;
  for (let r = 0; r < LARGE_REPS; r++) {
    const t = performance.now();
    const result = await client.sendRequest(LARGE_METHOD, {});
    times.push(performance.now() - t);
    items = result.length;
  }
  if (!(items > 20000)) throw new Error(`bench/large returned ${items} items`);

  process.stdout.write(`${JSON.stringify({ lib: values.lib, seq, memory, inflight: { callsPerSec: median(rates) }, large: { medianMs: median(times), items } })}\n`);
} finally {
  await client.dispose();
}
process.exit(0);
