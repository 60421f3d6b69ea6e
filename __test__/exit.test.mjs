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

// The host killed from outside: adt-ls gets PR_SET_PDEATHSIG (Linux), so it goes down with it.
const LINUX_ONLY = process.platform !== 'linux' && 'adt-ls follows a killed host through PR_SET_PDEATHSIG (Linux only)';
for (const signal of ['SIGKILL', 'SIGTERM']) {
  test(`killing the host process with ${signal} takes adt-ls down`, { skip: LINUX_ONLY, timeout: 60_000 }, async () => {
    const mark = marker();
    const child = spawn(process.execPath, [SCENARIO, 'wait-to-be-killed'], {
      env: { ...process.env, ADTLS_TEST_MARKER: mark, TMPDIR: childTmp() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
    try {
      assert.ok(await until(() => stderr.includes('started '), 30_000), `never started: ${stderr}`);
      // The host carries the marker too (it hands its environment on): count adt-ls only.
      const running = simulatorPids(mark).filter((pid) => pid !== child.pid);
      assert.equal(running.length, 1, `one adt-ls runs before the kill: ${running}`);
      child.kill(signal);
      assert.deepEqual(await exited, { code: null, signal });
      const gone = await until(() => running.every((pid) => !simulatorPids(mark).includes(pid)), 10_000);
      assert.ok(gone, `adt-ls ${running} still running 10 s after the host got ${signal}`);
    } finally {
      child.kill('SIGKILL');
      for (const pid of simulatorPids(mark)) process.kill(pid, 'SIGKILL');
    }
  });
}

test('stderrLogger writes to stderr only; stdout stays clean', async () => {
  const r = await run('logger', marker());
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /\[scenario\] info: adt-ls ready: ADTLS 1\.1\.2\.202608131517/);
  assert.match(r.stderr, /\[scenario\] debug: \[adt-ls\] /);
});
