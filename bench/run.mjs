// Benchmarks: adt-ls-native against @marianfoo/adt-ls 0.5.0 on the same simulator, in one run
// (`npm run bench`, which builds the release addon first and then also runs the hot-path
// benchmark bench/hot-path.mjs). Each scenario runs both libraries alternately, several
// rounds, and reports medians and the ratio (0.5.0 time / ours).
//
//   node bench/run.mjs [--rounds 5] [--only <scenario name substring>]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ours from '../index.js';
import * as ref from '@marianfoo/adt-ls';
import { installFakeExtension, simulatorBinPath } from '../simulator/lib/install.mjs';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { measureCliStartup, startupTable } from './cli-startup.mjs';

// @marianfoo/adt-ls 0.5.0 fires `initialized` and other writes without awaiting them; when a
// dispose kills adt-ls first, vscode-jsonrpc throws EPIPE / write-after-end from a socket
// callback. Count those instead of letting them end the run.
let referenceWriteErrors = 0;
process.on('uncaughtException', (e) => {
  if (e?.code === 'EPIPE' || /socket has been ended/.test(e?.message ?? '')) {
    referenceWriteErrors++;
    return;
  }
  throw e;
});

const argv = process.argv.slice(2);
const ROUNDS = Number(argv[argv.indexOf('--rounds') + 1]) || 5;
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const QUIET = { ADTLS_SIM_QUIET: '1' };
const SIM = simulatorBinPath();

const home = mkdtempSync(join(tmpdir(), 'adt-ls-bench-'));
const { binPath } = installFakeExtension({ home });
const sap = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: 'Developer#1' } });

const libs = { 'adt-ls-native': ours, '@marianfoo/adt-ls 0.5.0': ref };

/** A driver on the simulator through `node <bin>` (both libraries accept extraArgs). */
const driverFor = (lib) => new lib.AdtLsDriver(process.execPath, { extraArgs: [SIM], extraEnv: QUIET });

const scenarios = [
  {
    name: 'driver: spawn + LSP handshake + dispose',
    async run(lib) {
      const d = driverFor(lib);
      await d.start();
      await d.dispose();
    },
  },
  {
    name: 'driver: 2,000 sequential requests',
    async setup(lib) {
      const d = driverFor(lib);
      await d.start();
      return d;
    },
    async run(_, d) {
      for (let i = 0; i < 2000; i++) await d.sendRequest('sim/echo', { i });
    },
    teardown: (_, d) => d.dispose(),
  },
  {
    name: 'driver: 10,000 concurrent requests',
    async setup(lib) {
      const d = driverFor(lib);
      await d.start();
      return d;
    },
    async run(_, d) {
      await Promise.all(Array.from({ length: 10000 }, (_, i) => d.sendRequest('sim/echo', { i, s: 'x'.repeat(64) })));
    },
    teardown: (_, d) => d.dispose(),
  },
  {
    name: 'driver: 200 requests with 100 kB results',
    async setup(lib) {
      const d = driverFor(lib);
      await d.start();
      return d;
    },
    async run(_, d) {
      const big = { items: Array.from({ length: 1000 }, (_, i) => ({ name: `ZCL_OBJECT_${i}`, uri: `/sap/bc/adt/oo/classes/zcl_object_${i}` })) };
      for (let i = 0; i < 200; i++) await d.sendRequest('sim/echo', big);
    },
    teardown: (_, d) => d.dispose(),
  },
  {
    name: 'createAdtLs (foundation) + capabilities() + dispose',
    async run(lib) {
      const c = await lib.createAdtLs({ adtLs: { path: binPath } });
      await c.capabilities?.();
      await c.raw.tool('abap_list_destinations', {});
      await c.dispose();
    },
  },
  {
    name: 'createAdtLs (connected: TLS proxy, truststore, ticket) + dispose',
    async run(lib) {
      const c = await lib.createAdtLs({
        adtLs: { path: binPath },
        connection: { systemUrl: sap.url, selfSigned: true },
        auth: lib.basic('DEVELOPER', 'Developer#1'),
        keepAlive: false,
      });
      await c.dispose();
    },
  },
  {
    name: 'connected: 300 repository searches',
    async setup(lib) {
      return lib.createAdtLs({
        adtLs: { path: binPath },
        connection: { systemUrl: sap.url, selfSigned: true },
        auth: lib.basic('DEVELOPER', 'Developer#1'),
        keepAlive: false,
      });
    },
    async run(_, c) {
      for (let i = 0; i < 300; i++) await c.repository.search('CL_ABAP_TYPEDESCR', { types: ['CLAS/OC'] });
    },
    teardown: (_, c) => c.dispose(),
  },
  {
    name: 'connected: 100 MCP tool calls (listDestinations)',
    async setup(lib) {
      return lib.createAdtLs({
        adtLs: { path: binPath },
        connection: { systemUrl: sap.url, selfSigned: true },
        auth: lib.basic('DEVELOPER', 'Developer#1'),
        keepAlive: false,
      });
    },
    async run(_, c) {
      for (let i = 0; i < 100; i++) await c.listDestinations();
    },
    teardown: (_, c) => c.dispose(),
  },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const rows = [];
let cliStartup = [];
try {
  for (const sc of scenarios) {
    if (ONLY && !sc.name.includes(ONLY)) continue;
    const times = Object.fromEntries(Object.keys(libs).map((k) => [k, []]));
    const errors = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, lib] of Object.entries(libs)) {
        if (errors[label]) continue;
        let state;
        try {
          state = sc.setup ? await sc.setup(lib) : undefined;
          const t0 = performance.now();
          await sc.run(lib, state);
          times[label].push(performance.now() - t0);
        } catch (e) {
          errors[label] = e.message.split('\n')[0].slice(0, 80);
        } finally {
          if (state && sc.teardown) await sc.teardown(lib, state).catch(() => {});
        }
      }
    }
    const [a, b] = Object.keys(libs);
    const ma = times[a].length ? median(times[a]) : NaN;
    const mb = times[b].length ? median(times[b]) : NaN;
    rows.push({ scenario: sc.name, ours: ma, ref: mb, ratio: mb / ma, errors });
    const fmt = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : 'n/a');
    console.log(`${sc.name}\n  adt-ls-native ${fmt(ma)}   0.5.0 ${fmt(mb)}   ratio ${Number.isFinite(mb / ma) ? `${(mb / ma).toFixed(2)}x` : 'n/a'}${Object.keys(errors).length ? `   errors: ${JSON.stringify(errors)}` : ''}`);
  }
  if (!ONLY || 'cli start-up'.includes(ONLY)) cliStartup = await measureCliStartup({ binPath, sap, rounds: ROUNDS + 2 });
} finally {
  await sap.close();
  rmSync(home, { recursive: true, force: true });
}

console.log(`\n| Scenario | adt-ls-native (median ms) | @marianfoo/adt-ls 0.5.0 (median ms) | 0.5.0 / native |`);
console.log('| --- | ---: | ---: | ---: |');
for (const r of rows) {
  const f = (x) => (Number.isFinite(x) ? x.toFixed(0) : 'n/a');
  const ratio = Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}x` : `n/a (${Object.entries(r.errors).map(([k, v]) => `${k}: ${v}`).join('; ')})`;
  console.log(`| ${r.scenario} | ${f(r.ours)} | ${f(r.ref)} | ${ratio} |`);
}
if (cliStartup.length) console.log(`\nThe command line's own start-up (docs/performance.md#command-line-start-up):\n\n${startupTable(cliStartup)}`);
if (referenceWriteErrors) console.log(`\n(${referenceWriteErrors} write-after-close errors thrown by @marianfoo/adt-ls 0.5.0's vscode-jsonrpc were ignored)`);
process.exit(0);
