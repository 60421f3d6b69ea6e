// The CI gate on the hot-path ratios: reads a bench/hot-path.mjs report and
// bench/thresholds.json and fails (exit 1) when a ratio is past its limit. Only ratios of
// ours to 0.5.0 and to the raw-JS floor, measured in the same run, are checked; never an
// absolute time. A missing or non-finite ratio fails too (a client that did not run is not
// a pass).
//
//   node bench/gate.mjs [--report target/bench/ci-hot-path.json] [--thresholds bench/thresholds.json]

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    report: { type: 'string', default: 'target/bench/ci-hot-path.json' },
    thresholds: { type: 'string', default: 'bench/thresholds.json' },
  },
});
const report = JSON.parse(readFileSync(values.report, 'utf8'));
const { limits } = JSON.parse(readFileSync(values.thresholds, 'utf8'));

const failures = [];
console.log('| ratio | column | measured | limit | |');
console.log('|---|---|---:|---:|---|');
for (const [pair, columns] of Object.entries(limits)) {
  for (const [column, limit] of Object.entries(columns)) {
    const measured = report.ratios?.[pair]?.[column];
    const ok = Number.isFinite(measured) && ('max' in limit ? measured <= limit.max : measured >= limit.min);
    const bound = 'max' in limit ? `≤ ${limit.max}` : `≥ ${limit.min}`;
    const shown = Number.isFinite(measured) ? `${measured.toFixed(2)}×` : 'n/a';
    console.log(`| ${pair} | ${column} | ${shown} | ${bound} | ${ok ? 'ok' : 'REGRESSION'} |`);
    if (!ok) failures.push(`${pair} ${column}: ${shown}, limit ${bound}`);
  }
}
if (Object.keys(report.errors ?? {}).length) failures.push(`clients failed: ${JSON.stringify(report.errors)}`);
if (failures.length) {
  console.error(`\nhot-path ratio regression:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('\nhot-path ratios within their limits');
