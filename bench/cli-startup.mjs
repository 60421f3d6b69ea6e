// The command line's own start-up, for `npm run bench` (bench/run.mjs): the wall time from
// starting the bin's process (`node bin/adt-ls-native.js ...`) to the moment the engine
// spawns adt-ls, read from the engine's `adt-ls spawned` line (DEBUG=adt-ls-native:process,
// which stamps each line with the time), and the whole run to its exit. Node's own start
// (`node -e 0`) is measured beside it, so the CLI's share is visible. Foundation mode
// (`tools`) and connected mode (`unit`, where the TLS material is made before the spawn).
//
//   node bench/cli-startup.mjs [--rounds 7]     (standalone: its own simulator)

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'adt-ls-native.js');
const SPAWNED = /^(\S+) adt-ls-native:process debug adt-ls spawned: pid \d+$/m;

function runOnce(args, env) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const total = Date.now() - t0;
      const spawned = SPAWNED.exec(stderr);
      resolve({ code, total, toSpawn: spawned ? Date.parse(spawned[1]) - t0 : NaN, stderr });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Medians over `rounds` runs of each case: `[{case, toSpawn, total}]` (ms). */
export async function measureCliStartup({ binPath, sap, rounds = 7 }) {
  const env = { ...process.env, DEBUG: 'adt-ls-native:process', ADTLS_SIM_QUIET: '1', ADT_LS_PASSWORD: 'Developer#1' };
  delete env.ADT_LS_PATH;
  const cases = [
    { case: 'node -e 0 (Node alone)', args: ['-e', '0'] },
    { case: 'adt-ls-native tools (foundation)', args: [BIN, 'tools', '--adt-ls-path', binPath, '--quiet'] },
    {
      case: 'adt-ls-native unit ZCL_TEST:CLAS/OC (connected, selfSigned)',
      args: [BIN, 'unit', 'ZCL_TEST:CLAS/OC', '--url', sap.url, '--self-signed', '--user', 'DEVELOPER', '--adt-ls-path', binPath, '--quiet'],
    },
  ];
  const rows = [];
  for (const c of cases) {
    const toSpawn = [];
    const total = [];
    for (let i = 0; i < rounds; i++) {
      const r = await runOnce(c.args, env);
      if (r.code !== 0) throw new Error(`${c.case} exited ${r.code}: ${r.stderr.slice(-400)}`);
      total.push(r.total);
      if (Number.isFinite(r.toSpawn)) toSpawn.push(r.toSpawn);
    }
    rows.push({ case: c.case, toSpawn: toSpawn.length ? median(toSpawn) : NaN, total: median(total) });
  }
  return rows;
}

/** The Markdown table of {@link measureCliStartup}'s rows. */
export function startupTable(rows) {
  const f = (x) => (Number.isFinite(x) ? x.toFixed(0) : '—');
  const lines = ['| CLI run | process start → adt-ls spawn (median ms) | whole run (median ms) |', '| --- | ---: | ---: |'];
  for (const r of rows) lines.push(`| ${r.case} | ${f(r.toSpawn)} | ${f(r.total)} |`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { installFakeExtension } = await import('../simulator/lib/install.mjs');
  const { startSapBackend } = await import('../simulator/lib/sap/index.mjs');
  const argv = process.argv.slice(2);
  const rounds = Number(argv[argv.indexOf('--rounds') + 1]) || 7;
  const home = mkdtempSync(join(tmpdir(), 'adt-ls-cli-bench-'));
  const { binPath } = installFakeExtension({ home });
  const sap = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: 'Developer#1' } });
  try {
    console.log(startupTable(await measureCliStartup({ binPath, sap, rounds })));
  } finally {
    await sap.close();
    rmSync(home, { recursive: true, force: true });
  }
}
