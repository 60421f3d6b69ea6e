// Cost of the caller-stack capture (issue 10 §1): every promise-returning export captures
// the caller's frames at the call. This runs N calls of a promise-returning export (a
// not-started driver's sendNotification, which rejects at once, so the figure is the call
// overhead and not adt-ls) in two child processes, with the capture on (default) and off
// (ADT_LS_NATIVE_CALLER_STACKS=0), and prints the per-call times and the difference.
//
//   node bench/caller-stacks.mjs [--calls 100000]

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const CALLS = Number(argv[argv.indexOf('--calls') + 1]) || 100_000;

if (argv.includes('--child')) {
  const { AdtLsDriver } = await import('../index.js');
  const driver = new AdtLsDriver('/nonexistent/adt-ls');
  async function myBusinessFunction() {
    try {
      await driver.sendNotification('x/y');
    } catch {
      // expected: ERR_NOT_STARTED
    }
  }
  for (let i = 0; i < 2_000; i++) await myBusinessFunction(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await myBusinessFunction();
  const ns = Number(process.hrtime.bigint() - t0);
  await driver.dispose();
  process.stdout.write(JSON.stringify({ perCallUs: ns / CALLS / 1000 }));
} else {
  const run = (on) => {
    const env = { ...process.env, ADT_LS_NATIVE_CALLER_STACKS: on ? '1' : '0' };
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--calls', String(CALLS)], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    return JSON.parse(r.stdout).perCallUs;
  };
  const off = run(false);
  const on = run(true);
  console.log(`${CALLS} rejected calls: capture off ${off.toFixed(2)} µs/call, on ${on.toFixed(2)} µs/call, capture costs ${(on - off).toFixed(2)} µs/call`);
}
