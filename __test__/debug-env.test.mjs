// `DEBUG=adt-ls-native...` turns on namespaced stderr logging without code changes (the
// `debug` package's pattern rules; the pure matching is unit-tested in src/kernel/debug_env.rs):
// each scenario runs createAdtLs in a child process and reads its stderr. Nothing goes to
// stdout, secrets stay masked, and an explicit setLogger wins over DEBUG.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, childTmp } from './helpers.mjs';
import { PASSWORD } from './fixtures/client/support.mjs';

const SCENARIO = join(ROOT, '__test__', 'fixtures', 'debug-scenario.mjs');
const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z adt-ls-native:(lsp|mcp|auth|tls|process|client) (debug|info|warn|error) /;
const TEST_OPTS = { timeout: 120_000 };

/** Run a scenario with `DEBUG` (undefined: unset); resolves with code, stdout, stderr, our lines. */
function run(scenario, debug) {
  const env = { ...process.env, TMPDIR: childTmp() };
  delete env.DEBUG;
  if (debug !== undefined) env.DEBUG = debug;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCENARIO, scenario], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      const ours = stderr.split('\n').filter((l) => l.includes('adt-ls-native:'));
      const areas = new Set(ours.map((l) => LINE.exec(l)?.[1]));
      resolve({ code, signal, stdout, stderr, ours, areas });
    });
  });
}

function assertRan(r) {
  assert.equal(r.signal, null, `killed; stderr:\n${r.stderr}`);
  assert.equal(r.code, 0, `exit ${r.code}; stderr:\n${r.stderr}`);
  assert.equal(r.stdout, '', 'nothing on stdout');
}

test('DEBUG=adt-ls-native: namespaced lines per area on stderr, nothing on stdout, no secret', TEST_OPTS, async () => {
  const r = await run('connected', 'adt-ls-native');
  assertRan(r);
  for (const line of r.ours) assert.match(line, LINE);
  for (const area of ['tls', 'process', 'lsp', 'mcp', 'client']) assert.ok(r.areas.has(area), `${area} lines in:\n${r.stderr}`);
  assert.match(r.stderr, /adt-ls-native:tls info tls-proxy: https:\/\/localhost:\d+ → /);
  assert.match(r.stderr, /adt-ls-native:lsp info adt-ls ready: ADTLS \*\*\* /, 'the password in a line is masked');
  for (const secret of [PASSWORD, Buffer.from(`DEVELOPER:${PASSWORD}`).toString('base64')]) {
    assert.equal(r.stderr.includes(secret), false, 'a secret reached stderr');
  }
});

test('DEBUG=adt-ls-native:mcp: only the mcp area', TEST_OPTS, async () => {
  const r = await run('foundation', 'adt-ls-native:mcp');
  assertRan(r);
  assert.ok(r.ours.length > 0, `mcp lines expected; stderr:\n${r.stderr}`);
  assert.deepEqual([...r.areas], ['mcp']);
});

test('DEBUG=adt-ls-native:*,-adt-ls-native:process: every area but the excluded one', TEST_OPTS, async () => {
  const r = await run('foundation', 'adt-ls-native:*,-adt-ls-native:process');
  assertRan(r);
  assert.ok(r.areas.has('lsp') && r.areas.has('mcp'), r.stderr);
  assert.equal(r.areas.has('process'), false, r.stderr);
  const all = await run('foundation', 'adt-ls-native:*');
  assertRan(all);
  assert.ok(all.areas.has('process'), `the simulator's own output is logged as process:\n${all.stderr}`);
});

test('no DEBUG, or a DEBUG naming other libraries: silent', TEST_OPTS, async () => {
  for (const debug of [undefined, 'express:*,-adt-ls-native:*', 'adt-ls']) {
    const r = await run('foundation', debug);
    assertRan(r);
    assert.deepEqual(r.ours, [], `DEBUG=${debug}`);
  }
});

test('setLogger takes precedence over DEBUG', TEST_OPTS, async () => {
  const r = await run('logger', 'adt-ls-native');
  assertRan(r);
  assert.deepEqual(r.ours, [], 'no DEBUG lines once a logger is set');
  const got = Number(/the user's logger got (\d+) lines/.exec(r.stderr)?.[1]);
  assert.ok(got > 0, r.stderr);
});
