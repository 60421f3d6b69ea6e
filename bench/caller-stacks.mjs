// Cost of the caller's frames on rejections (docs/errors.md "Stacks and cost"):
// N calls of a promise-returning export that rejects at once (a not-started driver's
// sendNotification, so the figure is the call and rejection overhead, not adt-ls), in one
// child process per ADT_LS_NATIVE_CALLER_STACKS setting: off (0), the default (frames from the
// await) and at the call (call). Every rejection formats its stack. Prints µs per call.
//
//   node bench/caller-stacks.mjs [--calls 100000]

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const CALLS = Number(argv[argv.indexOf('--calls') + 1]) || 100_000;

if (argv.includes('--child')) {
  const { AdtLsDriver } = await import('../index.js');
  const driver = new AdtLsDriver('/nonexistent/adt-ls');
  let sink = 0;
  async function myBusinessFunction() {
    try {
      await driver.sendNotification('x/y');
    } catch (e) {
      sink += e.stack.length; // expected: ERR_NOT_STARTED; the stack is formatted as a user would
    }
  }
  for (let i = 0; i < 2_000; i++) await myBusinessFunction(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await myBusinessFunction();
  const ns = Number(process.hrtime.bigint() - t0);
  await driver.dispose();
  process.stdout.write(JSON.stringify({ perCallUs: ns / CALLS / 1000 }));
} else {
  const run = (setting) => {
    const env = { ...process.env, ADT_LS_NATIVE_CALLER_STACKS: setting };
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--calls', String(CALLS)], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    return JSON.parse(r.stdout).perCallUs;
  };
  const off = run('0');
  const atAwait = run('');
  const atCall = run('call');
  console.log(`${CALLS} rejected calls, µs per call: frames off ${off.toFixed(2)}, at the await (default) ${atAwait.toFixed(2)} (+${(atAwait - off).toFixed(2)}), at the call ${atCall.toFixed(2)} (+${(atCall - off).toFixed(2)})`);
}
