// Full-client memory: RSS and JS heap after 5,000 calls of a connected
// `createAdtLs` client on the simulator, adt-ls-native against @marianfoo/adt-ls 0.5.0. The
// simulated SAP system runs in this (parent) process; each client runs in a fresh child
// process of its own (`--expose-gc`), so the figures are the client's alone. Clients
// alternate within a round; medians over rounds.
//
//   node bench/client-memory.mjs [--rounds 3] [--calls 5000]
//
// Each call is `client.repository.search(...)` (a request through the simulated adt-ls to the
// simulated SAP system and back). After the calls: a forced `gc()`, then
// `process.memoryUsage()` (`rss`, `heapUsed`).

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '5000' },
    child: { type: 'string' },
    bin: { type: 'string' },
    url: { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const LIBS = { ours: 'adt-ls-native', ref: '@marianfoo/adt-ls 0.5.0' };

if (values.child) {
  // 0.5.0's vscode-jsonrpc may throw EPIPE from a socket callback at dispose (see run.mjs).
  process.on('uncaughtException', (e) => {
    if (e?.code === 'EPIPE' || /socket has been ended/.test(e?.message ?? '')) return;
    throw e;
  });
  const lib = values.child === 'ours' ? await import('../index.js') : await import('@marianfoo/adt-ls');
  const client = await lib.createAdtLs({
    adtLs: { path: values.bin },
    connection: { systemUrl: values.url, selfSigned: true },
    auth: lib.basic('DEVELOPER', 'Developer#1'),
    keepAlive: false,
  });
  try {
    for (let i = 0; i < CALLS; i++) await client.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
    globalThis.gc?.();
    const mem = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rssMb: mem.rss / 2 ** 20, heapMb: mem.heapUsed / 2 ** 20 })}\n`);
  } finally {
    await client.dispose();
  }
  process.exit(0);
}

const { installFakeExtension } = await import('../simulator/lib/install.mjs');
const { startSapBackend } = await import('../simulator/lib/sap/index.mjs');
const home = mkdtempSync(join(tmpdir(), 'adt-ls-bench-mem-'));
const { binPath } = installFakeExtension({ home });
const sap = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: 'Developer#1' } });
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
const runs = { ours: [], ref: [] };
const errors = {};
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const lib of Object.keys(LIBS)) {
      if (errors[lib]) continue;
      const args = ['--expose-gc', fileURLToPath(import.meta.url), '--child', lib, '--calls', String(CALLS), '--bin', binPath, '--url', sap.url];
      // spawnSync would block this process, which serves the simulated SAP system.
      const res = await new Promise((done) => {
        const opts = { env: { ...process.env, ADTLS_SIM_QUIET: '1' }, timeout: 10 * 60_000 };
        execFile(process.execPath, args, opts, (error, stdout, stderr) => done({ error, stdout, stderr }));
      });
      try {
        runs[lib].push(JSON.parse(res.stdout.trim().split('\n').pop()));
        process.stderr.write(`round ${round + 1} ${LIBS[lib]}: ${res.stdout.trim()}\n`);
      } catch {
        errors[lib] = `${res.error?.message ?? 'no result'}: ${String(res.stderr).trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`;
        process.stderr.write(`${LIBS[lib]} failed: ${errors[lib]}\n`);
      }
    }
  }
} finally {
  await sap.close();
  rmSync(home, { recursive: true, force: true });
}
const med = (lib, key) => median(runs[lib].map((r) => r[key]));
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
console.log(`\nFull client, after ${CALLS} calls (${values.rounds} rounds, medians):`);
console.log('| | RSS MB | JS heap MB |');
console.log('|---|---:|---:|');
for (const [lib, label] of Object.entries(LIBS)) console.log(`| ${label} | ${fmt(med(lib, 'rssMb'))} | ${fmt(med(lib, 'heapMb'))} |`);
console.log(`| ours/0.5.0 | ${(med('ours', 'rssMb') / med('ref', 'rssMb')).toFixed(2)}× | ${(med('ours', 'heapMb') / med('ref', 'heapMb')).toFixed(2)}× |`);
if (Object.keys(errors).length) console.log(`\nerrors: ${JSON.stringify(errors)}`);
process.exitCode = Object.keys(errors).length ? 1 : 0;
