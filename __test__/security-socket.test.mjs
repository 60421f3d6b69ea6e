// The LSP socket and the temp files, through the public API in fresh Node
// processes: an attacker that connects to the adt-ls socket before adt-ls does (another uid
// under umask 000, and a same-uid process outside the child's tree) gets nothing and the
// driver still starts with the real child; the socket and data dirs are 0700; a host killed
// by SIGKILL/SIGTERM leaves dirs that the next start removes, while a live host's dirs and
// another uid's are left alone; process.exit() right after parallel createAdtLs leaves
// nothing behind.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, childTmp, marker, ourTempEntries, simulatorPids, until } from './helpers.mjs';

const FIXTURES = join(ROOT, '__test__', 'fixtures', 'security');
const SCENARIO = join(FIXTURES, 'scenario.mjs');
const ATTACKER_SOURCE = readFileSync(join(FIXTURES, 'attacker.cjs'), 'utf8');
/** How long adt-ls's launcher sleeps before starting: the attacker's head start. */
const LAUNCH_DELAY = '1.5';
/** How long an attacker keeps trying (well past the launch delay and the start). */
const ATTACK_MS = 6000;

/** Run a scenario process; `started` resolves once adt-ls runs, `done` at exit. */
function scenario(name, { tmp, env = {}, watchdogMs = 60_000 }) {
  const child = spawn(process.execPath, [SCENARIO, name], {
    env: { ...process.env, TMPDIR: tmp, ADTLS_TEST_MARKER: marker(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onStarted;
  const started = new Promise((resolve) => (onStarted = resolve));
  child.stdout.on('data', (d) => {
    stdout += d;
    if (stdout.includes('\n')) onStarted(JSON.parse(stdout.split('\n')[0]));
  });
  child.stderr.on('data', (d) => (stderr += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), watchdogMs);
  const done = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      onStarted(undefined);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, started, done };
}

/** Run the attacker (optionally through `setpriv` as another user) against `dir`. */
function attacker(dir, asUser) {
  const argv = [process.execPath, '-e', ATTACKER_SOURCE, dir, String(ATTACK_MS)];
  const [cmd, ...args] = asUser ? ['setpriv', ...asUser, ...argv] : argv;
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`attacker exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

const AS_NOBODY = ['--reuid=nobody', '--regid=nogroup', '--clear-groups'];

/** Why a test cannot run an attacker as another uid here, or '' when it can. */
function otherUidUnavailable() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'needs root to run an attacker as nobody';
  const probe = spawnSync('setpriv', [...AS_NOBODY, process.execPath, '-e', '0'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return `setpriv as nobody unavailable (${probe.error?.code ?? `status ${probe.status}`})`;
  return '';
}

const modeOf = (entries, re) => entries.filter((e) => re.test(e.name)).map((e) => e.mode.toString(8));

test('another uid connecting first under umask 000 gets nothing; the socket dir is 0700', { skip: otherUidUnavailable() || false }, async () => {
  // A world-writable temp dir like /tmp, so the attacker can look into it.
  const tmp = mkdtempSync('/tmp/adt-ls-native-sec-');
  chmodSync(tmp, 0o1777);
  try {
    const attack = attacker(tmp, AS_NOBODY);
    const run = scenario('start-dispose', { tmp, env: { ADTLS_TEST_UMASK: '000', ADTLS_TEST_LAUNCH_DELAY: LAUNCH_DELAY } });
    const [seen, r, got] = await Promise.all([run.started, run.done, attack]);
    assert.ok(got.found.length > 0, `the attacker found no socket: ${JSON.stringify(got)}`);
    assert.equal(got.bytes, 0, `the attacker received: ${JSON.stringify(got.data)}`);
    assert.equal(r.code, 0, `the driver did not start with the real child:\n${r.stderr}`);
    assert.equal(got.connected, 0, JSON.stringify(got));
    assert.ok(got.errors.includes('connect EACCES'), JSON.stringify(got));
    assert.deepEqual(modeOf(seen.entries, /^adt-ls-pipe-[0-9a-f]{12}$/), ['700'], JSON.stringify(seen.entries));
    assert.deepEqual(modeOf(seen.entries, /^adt-ls-[0-9a-f]{12}$/), ['700'], JSON.stringify(seen.entries));
    assert.deepEqual(ourTempEntries(tmp), [], 'dispose removes the socket and data dirs');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a same-uid process outside the child tree is refused and logged; adt-ls still starts', async () => {
  const tmp = childTmp();
  const attack = attacker(tmp);
  const run = scenario('start-dispose', { tmp, env: { ADTLS_TEST_UMASK: '000', ADTLS_TEST_LAUNCH_DELAY: LAUNCH_DELAY } });
  const [r, got] = await Promise.all([run.done, attack]);
  assert.ok(got.connected >= 1, `the attacker never got in first: ${JSON.stringify(got)}`);
  assert.equal(got.bytes, 0, `the attacker received: ${JSON.stringify(got.data)}`);
  assert.equal(r.code, 0, `the driver did not start with the real child:\n${r.stderr}`);
  assert.match(r.stderr, /warn: rejected a connection to the adt-ls socket \S+lsp\.sock: pid \d+ is not adt-ls \(pid \d+\)/);
  assert.match(r.stderr, /adt-ls ready/);
});

test('a launcher that forks adt-ls (the peer is a grandchild) is accepted', async () => {
  const tmp = childTmp();
  const run = scenario('start-dispose', { tmp, env: { ADTLS_TEST_FORK: '1' } });
  const r = await run.done;
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /rejected a connection/);
});

for (const signal of ['SIGKILL', 'SIGTERM']) {
  test(`${signal}: the next start removes what the dead host left; a live host's and another uid's dirs stay`, async (t) => {
    const tmp = childTmp();
    const dead = scenario('hold', { tmp });
    const deadSeen = await dead.started;
    if (!deadSeen) assert.fail(`did not start:\n${(await dead.done).stderr}`);
    const deadDirs = ourTempEntries(tmp);
    const live = scenario('hold', { tmp });
    try {
      const liveSeen = await live.started;
      if (!liveSeen) assert.fail(`did not start:\n${(await live.done).stderr}`);
      const liveDirs = ourTempEntries(tmp).filter((n) => !deadDirs.includes(n));
      assert.equal(deadDirs.length, 2, `data and socket dirs: ${deadDirs}`);
      assert.equal(liveDirs.length, 2, `data and socket dirs: ${liveDirs}`);

      dead.child.kill(signal);
      const ended = await dead.done;
      assert.equal(ended.signal, signal);
      assert.ok(deadDirs.every((n) => existsSync(join(tmp, n))), 'a killed host cannot clean up (else this test proves nothing)');

      // Ours but unmarked, and (as root) another uid's with a dead owner: never touched.
      const deadPid = spawnSync('true').pid;
      const unmarked = join(tmp, 'adt-ls-0123456789ab');
      mkdirSync(unmarked, { mode: 0o700 });
      const foreign = join(tmp, 'adt-ls-client-0badf00d');
      const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
      if (asRoot) {
        mkdirSync(foreign, { mode: 0o700 });
        writeFileSync(join(foreign, '.adt-ls-owner'), `pid=${deadPid}\n`);
        chownSync(join(foreign, '.adt-ls-owner'), 65534, 65534);
        chownSync(foreign, 65534, 65534);
      } else {
        t.diagnostic('not root: the other-uid dir case is not exercised');
      }

      const next = await scenario('start-dispose', { tmp }).done;
      assert.equal(next.code, 0, next.stderr);
      for (const n of deadDirs) assert.ok(!existsSync(join(tmp, n)), `${n} of the dead host is still there`);
      for (const n of liveDirs) assert.ok(existsSync(join(tmp, n)), `${n} of the live host was removed`);
      assert.ok(existsSync(unmarked), 'an unmarked dir was removed');
      if (asRoot) assert.ok(existsSync(foreign), "another uid's dir was removed");
    } finally {
      live.child.kill('SIGKILL');
      await live.done;
    }
  });
}

test('process.exit() right after parallel createAdtLs leaves nothing behind', async () => {
  // 32 starts in flight make a startup step land after the exit-time cleanup almost every
  // time (before the fix, most of these runs left 0755 work dirs behind).
  for (const after of ['sync', '1', '3', '6', '10', '30', '150']) {
    const tmp = childTmp();
    const mark = marker();
    const env = { ADTLS_TEST_PARALLEL: '32', ADTLS_TEST_EXIT_AFTER: after, ADTLS_TEST_MARKER: mark };
    const r = await scenario('parallel-exit', { tmp, env }).done;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(await until(() => simulatorPids(mark).length === 0, 5000), `adt-ls still running after exit (${after} ms)`);
    // Anything still finishing must not bring a dir back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(ourTempEntries(tmp), [], `left behind with exit after ${after} ms`);
  }
});
