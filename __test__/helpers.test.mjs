// The leak-check helper finds processes by an environment marker the same way through /proc
// (Linux) and through `ps` (macOS and other Unixes), so the leak checks run off Linux too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { marker, procPids, psPids, simulatorPids, until } from './helpers.mjs';

const NO_PS = spawnSync('ps', ['-p', String(process.pid)]).error ? 'ps not installed (procps)' : false;

test('a marked process is found while it runs and not after it exits (/proc and ps agree)', { skip: NO_PS }, async () => {
  const mark = marker();
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], {
    env: { ...process.env, ADTLS_TEST_MARKER: mark },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    assert.deepEqual(await until(() => (simulatorPids(mark).length ? simulatorPids(mark) : null), 5000), [child.pid]);
    assert.deepEqual(psPids(mark), [child.pid]);
    if (existsSync('/proc/self/environ')) assert.deepEqual(procPids(mark), [child.pid]);
    assert.deepEqual(psPids(`${mark}x`), [], 'a longer marker is another marker');
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  assert.deepEqual(psPids(mark), []);
  assert.deepEqual(simulatorPids(mark), []);
});
