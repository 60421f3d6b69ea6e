// The hot-path benchmark: the client-side cost of one LSP round trip for
// adt-ls-native, @marianfoo/adt-ls 0.5.0 and a raw-JS floor client (bench/floor-client.mjs),
// all against the same minimal peer (bench/lsp-peer.mjs), in one run. Each client runs in a
// fresh process per round (bench/hot-path-worker.mjs), clients alternate within a round, and
// every figure is the median over rounds. Prints a table with ratios and writes it as JSON to
// target/bench/hot-path.json. Columns are explained in docs/performance.md.
//
//   node bench/hot-path.mjs [--rounds 5] [--warmup 5000] [--calls 5000] [--inflight 20000] [--large-reps 7]
//                           [--out target/bench/hot-path.json] [--addon <file.node>] [--pin <cpu>]
// `--addon` measures that binary as "ours" (default: the package loader, ../index.js). Two
// more runs of ours give the cost of the caller's frames (docs/errors.md, "Stacks and cost"):
// with ADT_LS_NATIVE_CALLER_STACKS=0 (none: ours minus it is the default mode's cost) and
// with =call (the frames recorded at every call instead of at the await).
// `--pin <cpu>` (Linux, taskset) runs every worker and its peer on that one CPU: on a VM the
// cross-CPU wake-ups of a round trip cost more than either side's work and depend on where the
// scheduler puts the two processes, which makes the sequential figures bimodal; pinned, each
// client's own cost separates (docs/performance.md).
// `npm run bench:hot` builds the release addon first; `npm run bench` runs this after the
// simulator scenarios.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '5000' },
    calls: { type: 'string', default: '5000' },
    inflight: { type: 'string', default: '20000' },
    'large-reps': { type: 'string', default: '7' },
    out: { type: 'string', default: 'target/bench/hot-path.json' },
    addon: { type: 'string' },
    pin: { type: 'string' },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./hot-path-worker.mjs', import.meta.url));
const ROUNDS = Number(values.rounds);
const LIBS = {
  ours: 'adt-ls-native',
  ref: '@marianfoo/adt-ls 0.5.0',
  floor: 'raw JS floor (node:net)',
  'ours-nostack': 'adt-ls-native, caller stacks off',
  'ours-callsite': 'adt-ls-native, caller stacks at the call',
};
/** ADT_LS_NATIVE_CALLER_STACKS per client ('' is the default mode). */
const STACKS_SWITCH = { 'ours-nostack': '0', 'ours-callsite': 'call' };
const workerEnv = (lib) => ({
  ...process.env,
  ...(values.addon ? { ADT_LS_NATIVE_BENCH_ADDON: resolve(values.addon) } : {}),
  ADT_LS_NATIVE_CALLER_STACKS: STACKS_SWITCH[lib] ?? '',
});

/** [key, header, path into a worker result, higher is better?, decimals] */
const COLUMNS = [
  ['wallUs', 'wall µs/call', (r) => r.seq.wallUs, false, 1],
  ['cpuUs', 'client CPU µs/call', (r) => r.seq.cpuUs, false, 1],
  ['ctxSwitches', 'ctx switches/call', (r) => r.seq.ctxSwitches, false, 2],
  ['inflightPerSec', `${Number(values.inflight) / 1000}k in flight, calls/s`, (r) => r.inflight.callsPerSec, true, 0],
  ['largeMs', '5 MB result, ms (median)', (r) => r.large.medianMs, false, 1],
  ['rssMb', `RSS MB after ${values.warmup} calls`, (r) => r.memory.rssMb, false, 1],
  ['heapMb', `JS heap MB after ${values.warmup} calls`, (r) => r.memory.heapMb, false, 2],
];

const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);

const runs = Object.fromEntries(Object.keys(LIBS).map((k) => [k, []]));
const errors = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const lib of Object.keys(LIBS)) {
    if (errors[lib]) continue;
    const args = ['--expose-gc', WORKER, '--lib', lib, '--warmup', values.warmup, '--calls', values.calls, '--inflight', values.inflight, '--large-reps', values['large-reps']];
    const [command, argv] = values.pin ? ['taskset', ['-c', values.pin, process.execPath, ...args]] : [process.execPath, args];
    const res = spawnSync(command, argv, { cwd: ROOT, env: workerEnv(lib), encoding: 'utf8', timeout: 10 * 60_000 });
    const line = res.stdout?.trim().split('\n').pop();
    try {
      runs[lib].push(JSON.parse(line));
      process.stderr.write(`round ${round + 1}/${ROUNDS} ${LIBS[lib]}: ${line}\n`);
    } catch {
      errors[lib] = `${res.error?.message ?? `exit ${res.status}`}: ${(res.stderr ?? '').trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`;
      process.stderr.write(`${LIBS[lib]} failed: ${errors[lib]}\n`);
    }
  }
}

const results = {};
for (const lib of Object.keys(LIBS)) {
  results[lib] = Object.fromEntries(COLUMNS.map(([key, , get]) => [key, median(runs[lib].map(get))]));
}
const ratio = (a, b) => Object.fromEntries(COLUMNS.map(([key]) => [key, results[a][key] / results[b][key]]));
const ratios = { 'ours/0.5.0': ratio('ours', 'ref'), 'ours/floor': ratio('ours', 'floor'), 'ours/stacks off': ratio('ours', 'ours-nostack') };
// The caller's frames' cost per sequential (resolving) call: ours (default mode) minus ours
// without them, and the same for the frames recorded at every call.
const costOver = (lib) => ({
  wallUs: results[lib].wallUs - results['ours-nostack'].wallUs,
  cpuUs: results[lib].cpuUs - results['ours-nostack'].cpuUs,
  inflightPerSec: results[lib].inflightPerSec / results['ours-nostack'].inflightPerSec,
});
const callerStackCost = { ...costOver('ours'), atCall: costOver('ours-callsite') };

const gitHead = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();
const report = {
  date: new Date().toISOString(),
  machine: {
    platform: `${platform()} ${release()}`,
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    memGb: Math.round(totalmem() / 2 ** 30),
    loadavg: loadavg(),
    node: process.version,
  },
  command: `node bench/hot-path.mjs ${process.argv.slice(2).join(' ')}`.trim(),
  commit: gitHead,
  settings: { rounds: ROUNDS, warmup: Number(values.warmup), calls: Number(values.calls), inflight: Number(values.inflight), largeReps: Number(values['large-reps']), pinnedCpu: values.pin ?? null },
  columns: Object.fromEntries(COLUMNS.map(([key, header, , higherIsBetter]) => [key, { header, higherIsBetter }])),
  results,
  ratios,
  callerStackCost,
  errors,
  runs,
};
const out = resolve(ROOT, values.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

const fmt = (x, d) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : 'n/a');
const lines = [
  `| | ${COLUMNS.map(([, h]) => h).join(' | ')} |`,
  `|---|${COLUMNS.map(() => '---:').join('|')}|`,
  ...Object.entries(LIBS).map(([lib, label]) => `| ${label} | ${COLUMNS.map(([k, , , , d]) => fmt(results[lib][k], d)).join(' | ')} |`),
  ...Object.entries(ratios).map(([label, r]) => `| ${label} | ${COLUMNS.map(([k]) => (Number.isFinite(r[k]) ? `${r[k].toFixed(2)}×` : 'n/a')).join(' | ')} |`),
];
console.log(`\nHot path (${ROUNDS} rounds, medians; ${values.pin ? `every worker and its peer pinned to CPU ${values.pin}; ` : ''}${report.machine.cores} cores, load ${report.machine.loadavg.map((l) => l.toFixed(2)).join(' ')}):`);
console.log(lines.join('\n'));
const costLine = (c) => `${fmt(c.wallUs, 1)} µs wall, ${fmt(c.cpuUs, 1)} µs CPU per sequential call, ${fmt(c.inflightPerSec, 2)}× the in-flight throughput`;
console.log(`\nCaller's frames, against ADT_LS_NATIVE_CALLER_STACKS=0 (medians): at the await (default) ${costLine(callerStackCost)}; at the call ${costLine(callerStackCost.atCall)}`);
if (Object.keys(errors).length) console.log(`\nerrors: ${JSON.stringify(errors)}`);
console.log(`\nwritten to ${values.out}`);
process.exitCode = Object.keys(errors).length ? 1 : 0;
