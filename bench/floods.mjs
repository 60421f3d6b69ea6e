// Hostile-peer floods (docs/security.md, "Hostile peers: queues"):
// every scenario of bench/flood-worker.mjs in a fresh process, on Node with both readers (the
// JS-thread reader and ADT_LS_NATIVE_JS_THREAD_READS=0) and on Bun (Tokio reader), for our
// addon and optionally a second one to compare (`--base`). Prints a Markdown table of idle
// RSS, peak RSS and growth, and writes every result to target/bench/floods.json.
//
//   node bench/floods.mjs [--addon <file.node>] [--base <file.node>] [--only log,replies]
//                         [--runtimes node,bun] [--count-<scenario> N]

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const SCENARIOS = ['log', 'progress', 'requests', 'replies', 'deep'];
const { values } = parseArgs({
  options: {
    addon: { type: 'string' },
    base: { type: 'string' },
    only: { type: 'string' },
    runtimes: { type: 'string', default: 'node,bun' },
    out: { type: 'string', default: join(ROOT, 'target', 'bench', 'floods.json') },
    ...Object.fromEntries(SCENARIOS.map((s) => [`count-${s}`, { type: 'string' }])),
  },
});
const scenarios = values.only ? values.only.split(',') : SCENARIOS;
const bun = join(ROOT, 'node_modules', '.bin', 'bun');
const runtimes = values.runtimes.split(',').filter((r) => r !== 'bun' || existsSync(bun));
const addons = [['ours', values.addon ? resolve(values.addon) : undefined]];
if (values.base) addons.push(['base', resolve(values.base)]);

function run(runtime, reader, [label, addon], scenario) {
  const args = [join(HERE, 'flood-worker.mjs'), '--scenario', scenario];
  const count = values[`count-${scenario}`];
  if (count) args.push('--count', count);
  const env = { ...process.env, FLOOD_PEER_NODE: process.execPath, ADT_LS_NATIVE_JS_THREAD_READS: reader === 'tokio' ? '0' : '1' };
  if (addon) env.ADT_LS_NATIVE_BENCH_ADDON = addon;
  else delete env.ADT_LS_NATIVE_BENCH_ADDON;
  const bin = runtime === 'bun' ? bun : process.execPath;
  const out = spawnSync(bin, runtime === 'bun' ? args : ['--expose-gc', ...args], { env, encoding: 'utf8', timeout: 900_000 });
  const line = out.stdout.trim().split('\n').pop();
  try {
    return { addon: label, reader, ...JSON.parse(line) };
  } catch {
    return { addon: label, reader, scenario, runtime, error: (out.stderr || out.stdout || String(out.error)).trim().slice(-300) };
  }
}

const results = [];
for (const scenario of scenarios) {
  for (const runtime of runtimes) {
    const readers = runtime === 'bun' ? ['tokio'] : ['js-thread', 'tokio'];
    for (const reader of readers) {
      for (const addon of addons) {
        const r = run(runtime, reader, addon, scenario);
        results.push(r);
        process.stderr.write(`${JSON.stringify(r)}\n`);
      }
    }
  }
}

mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
const outcome = (r) => {
  if (r.error) return `error: ${r.error.split('\n').pop()}`;
  if (r.scenario === 'replies') return `${r.refused} of ${r.sent} refused`;
  if (r.scenario === 'deep') return r.code ? `${r.code} in ${r.ms} ms` : `resolved in ${r.ms} ms`;
  return r.doneWhileBusy ? `peer wrote all ${r.count} while JS was busy` : `peer blocked after ${r.writtenWhileBusy}`;
};
console.log('| scenario | runtime | reader | addon | idle RSS MB | peak RSS MB | growth MB | outcome |');
console.log('|---|---|---|---|---:|---:|---:|---|');
for (const r of results) {
  console.log(`| ${r.scenario} ${r.count ?? ''} | ${r.runtime} | ${r.reader} | ${r.addon} | ${r.idleMb ?? ''} | ${r.peakMb ?? ''} | ${r.growthMb ?? ''} | ${outcome(r)} |`);
}
