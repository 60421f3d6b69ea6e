// The host process exits promptly whatever the script does, and never leaves adt-ls behind.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, marker, simulatorPids, until, ourTempEntries, childTmp } from './helpers.mjs';

const SCENARIO = join(ROOT, '__test__', 'fixtures', 'exit-scenario.mjs');

/** Run a scenario; resolves with exit code, duration after "started", stdout and stderr. */
function run(name, mark, tmp = childTmp()) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCENARIO, name], {
      env: { ...process.env, ADTLS_TEST_MARKER: mark, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let startedAt;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!startedAt && stderr.includes('started ')) startedAt = Date.now();
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, afterStartMs: startedAt ? Date.now() - startedAt : undefined, stdout, stderr });
    });
  });
}

for (const scenario of ['dispose', 'forget-dispose', 'never-settling-handler', 'throwing-logger', 'exit-with-pending-request']) {
  test(`exits promptly and leaves no adt-ls behind: ${scenario}`, async () => {
    const mark = marker();
    const tmp = childTmp();
    const r = await run(scenario, mark, tmp);
    assert.equal(r.signal, null, `killed by the watchdog; stderr:\n${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.afterStartMs !== undefined, r.stderr);
    assert.ok(r.afterStartMs < 6000, `took ${r.afterStartMs}ms to exit after start`);
    const left = await until(() => simulatorPids(mark).length === 0, 3000);
    assert.ok(left, `adt-ls still running: ${simulatorPids(mark)}`);
    assert.deepEqual(ourTempEntries(tmp), [], 'temp dirs or sockets left behind');
  });
}

test('stderrLogger writes to stderr only; stdout stays clean', async () => {
  const r = await run('logger', marker());
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /\[scenario\] info: adt-ls ready: ADTLS 1\.1\.2\.202608131517/);
  assert.match(r.stderr, /\[scenario\] debug: \[adt-ls\] /);
});
