// Files and directories another local user can touch (docs/security.md, "Files and
// directories"), through the public API in fresh Node processes (a victim that blocks is
// killed by a watchdog, so a regression fails instead of hanging the suite). The other
// user is `nobody` (setpriv, when this process is root), as in the other multi-user tests.
// - The trace file: a FIFO (without and with a reader) never stalls createAdtLs or the
//   process's other clients and receives nothing; a planted symlink, another user's file,
//   a file or directory others may write to are refused (logged once, tracing off, the
//   client goes on).
// - The temp dir: world-writable without the sticky bit (0777), another user renaming our
//   dirs away finds nothing to take (the private fallback is used and logged); with the
//   sticky bit (1777) our dirs stay there and cannot be renamed.
// - A caller's dataDir that is a planted symlink or another user's dir is refused, and
//   its target keeps its mode.
// - The stale sweep removes a bounded number of dead hosts' dirs per start.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, childTmp, marker, simulatorPids, until } from './helpers.mjs';
import { NODE, otherUidUnavailable } from './fixtures/security/attacker.mjs';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { PASSWORD, installedAdtLs } from './fixtures/client/support.mjs';

const FIXTURES = join(ROOT, '__test__', 'fixtures', 'security');
const SCENARIO = join(FIXTURES, 'files-scenario.mjs');
const ATTACKER_SOURCE = readFileSync(join(FIXTURES, 'files-attacker.cjs'), 'utf8');
const AS_NOBODY = ['--reuid=nobody', '--regid=nogroup', '--clear-groups'];
const NOBODY_UID = 65534;
/** createAdtLs's startTimeoutMs in the scenario; the watchdog allows far more. */
const START_TIMEOUT_MS = 20_000;
const WATCHDOG_MS = 90_000;
const NO_OTHER_UID = otherUidUnavailable();
const NO_MKFIFO = spawnSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' }).status === 0 ? undefined : 'mkfifo (coreutils) is not installed';

/** Run a victim scenario; resolves {code, signal, line (its JSON line), stderr, killed}. */
function victim(name, { tmp, config = {}, env = {} }) {
  const mark = marker();
  const child = spawn(process.execPath, [SCENARIO, name], {
    env: { ...process.env, TMPDIR: tmp, ADTLS_TEST_MARKER: mark, ADTLS_TEST_CONFIG: JSON.stringify(config), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const watchdog = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, WATCHDOG_MS);
  return new Promise((resolve) => {
    child.on('exit', async (code, signal) => {
      clearTimeout(watchdog);
      await until(() => simulatorPids(mark).length === 0, 10_000);
      const first = stdout.split('\n')[0];
      resolve({ code, signal, killed, stderr, line: first ? JSON.parse(first) : undefined });
    });
  });
}

/** Run `argv` as nobody; throws when it fails. */
function asNobody(...argv) {
  const r = spawnSync('setpriv', [...AS_NOBODY, ...argv], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${argv.join(' ')} as nobody: ${r.stderr}`);
}

/** A fresh directory in /tmp (reachable by nobody) with `mode`, removed by `cleanup`. */
function sharedDir(mode) {
  const dir = mkdtempSync('/tmp/adt-ls-native-files-');
  chmodSync(dir, mode);
  return dir;
}

/** A directory only we can enter (the victim's own files). */
function privateDir() {
  const dir = childTmp();
  chmodSync(dir, 0o700);
  return dir;
}

const refusals = (stderr) => stderr.split('\n').filter((l) => /refused the trace file/.test(l));

test('a FIFO planted as the trace file stalls neither createAdtLs nor the other clients, with or without a reader', { skip: NO_OTHER_UID || NO_MKFIFO }, async () => {
  const shared = sharedDir(0o1777);
  const reader = [];
  try {
    const fifos = [join(shared, 'a.jsonl'), join(shared, 'b.jsonl'), join(shared, 'c.jsonl')];
    for (const f of fifos) asNobody('mkfifo', '-m', '0666', f);
    // The third one has a reader (the other user), who must receive nothing.
    const cat = spawn('setpriv', [...AS_NOBODY, 'sh', '-c', `exec cat '${fifos[2]}'`], { stdio: ['ignore', 'pipe', 'ignore'] });
    cat.stdout.on('data', (d) => reader.push(d));
    const exited = new Promise((resolve) => cat.on('exit', resolve));
    const r = await victim('clients', { tmp: privateDir(), config: { traces: [...fifos, null] } });
    assert.equal(r.killed, false, `createAdtLs did not settle (startTimeoutMs ${START_TIMEOUT_MS} ms):\n${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.line.results.map((x) => x.ok), [true, true, true, true], JSON.stringify(r.line));
    const refused = refusals(r.stderr);
    assert.equal(refused.length, 3, r.stderr);
    for (const line of refused) assert.match(line, /it is a FIFO, not a regular file; tracing is off for this session/);
    cat.kill('SIGKILL');
    await exited;
    assert.equal(Buffer.concat(reader).length, 0, 'the reader received trace lines');
  } finally {
    rmSync(shared, { recursive: true, force: true });
  }
});

test('a symlink planted as the trace file is not followed: the file it names is untouched', { skip: NO_OTHER_UID }, async () => {
  const shared = sharedDir(0o1777);
  const mine = privateDir();
  try {
    const precious = join(mine, 'precious.log');
    writeFileSync(precious, 'mine\n');
    const link = join(shared, 'trace.jsonl');
    asNobody('ln', '-s', precious, link);
    const r = await victim('clients', { tmp: privateDir(), config: { traces: [link] } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.line.results[0].ok, true, JSON.stringify(r.line));
    assert.equal(readFileSync(precious, 'utf8'), 'mine\n');
    const refused = refusals(r.stderr);
    assert.equal(refused.length, 1, r.stderr);
    assert.match(refused[0], /warn: .*refused the trace file \S+trace\.jsonl: it is a symbolic link; tracing is off/);
  } finally {
    rmSync(shared, { recursive: true, force: true });
  }
});

test("another user's trace file (0666), a file of ours others may write, a trace dir without the sticky bit: refused, nothing written", { skip: NO_OTHER_UID }, async () => {
  const shared = sharedDir(0o1777);
  const open = sharedDir(0o777);
  try {
    const theirs = join(shared, 'theirs.jsonl');
    asNobody('sh', '-c', `umask 000 && : > '${theirs}'`);
    const loose = join(shared, 'loose.jsonl');
    writeFileSync(loose, '');
    chmodSync(loose, 0o666);
    const inOpen = join(open, 'trace.jsonl');
    const kept = join(shared, 'kept.jsonl');
    writeFileSync(kept, '');
    chmodSync(kept, 0o644);
    const r = await victim('clients', { tmp: privateDir(), config: { traces: [theirs, loose, inOpen, kept] } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.line.results.map((x) => x.ok), [true, true, true, true], JSON.stringify(r.line));
    assert.equal(statSync(theirs).size, 0, "another user's file was appended to");
    assert.equal(statSync(loose).size, 0, 'a file others may write was appended to');
    assert.equal(existsSync(inOpen), false, 'a trace was created in a world-writable dir without the sticky bit');
    assert.ok(statSync(kept).size > 0, 'an existing 0644 trace file of ours is appended to');
    const refused = refusals(r.stderr).join('\n');
    assert.match(refused, new RegExp(`theirs\\.jsonl: it is owned by uid ${NOBODY_UID}, not by this user`));
    assert.match(refused, /loose\.jsonl: its group or other users may write to it \(mode 0666\)/);
    assert.match(refused, /trace\.jsonl: its directory \S+ is unsafe: other users may write to it and it lacks the sticky bit \(mode 0777\)/);
  } finally {
    rmSync(shared, { recursive: true, force: true });
    rmSync(open, { recursive: true, force: true });
  }
});

/** Run the victim next to an attacker (as nobody) that renames whatever we create in `tmp`. */
async function raceTheSwapper(tmp, config, env) {
  const attacker = spawn('setpriv', [...AS_NOBODY, NODE, '-e', ATTACKER_SOURCE, tmp, String(WATCHDOG_MS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let ready;
  const watching = new Promise((resolve) => (ready = resolve));
  attacker.stdout.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) ready();
  });
  const attacked = new Promise((resolve) => attacker.on('exit', () => resolve(JSON.parse(out.replace(/^ready\n/, '') || '{}'))));
  attacker.on('exit', () => ready());
  await watching;
  const r = await victim('clients', { tmp, config, env });
  attacker.stdin.end();
  return { r, got: await attacked };
}

let sap;
before(async () => {
  if (!NO_OTHER_UID) sap = await startSapBackend({ tls: 'self-signed' });
});
after(async () => {
  await sap?.close();
});

test('a 0777 temp dir (no sticky bit): nothing of ours is created there, the private fallback is used and logged', { skip: NO_OTHER_UID }, async () => {
  const tmp = sharedDir(0o777);
  const runtime = privateDir();
  try {
    // A client with selfSigned: its work dir holds truststore.p12 and proxy-client.p12.
    const config = { traces: [null, null], adtLsPath: installedAdtLs().path, connection: { systemUrl: sap.url, selfSigned: true }, password: PASSWORD };
    const { r, got } = await raceTheSwapper(tmp, config, { XDG_RUNTIME_DIR: runtime });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.line.results.map((x) => x.ok), [true, true], JSON.stringify(r.line.results));
    assert.deepEqual(got.seen, [], `the attacker found our entries: ${JSON.stringify(got)}`);
    assert.equal(got.connections, 0);
    assert.deepEqual(r.line.tmpEntries, []);
    assert.ok(r.line.xdgEntries.some((n) => n.startsWith('adt-ls-client-')), JSON.stringify(r.line.xdgEntries));
    assert.ok(r.line.xdgEntries.some((n) => n.startsWith('adt-ls-pipe-')), JSON.stringify(r.line.xdgEntries));
    const warned = r.stderr.split('\n').filter((l) => l.includes('using the private directory'));
    assert.equal(warned.length, 1, r.stderr);
    assert.match(warned[0], /warn: refused the temp dir \S+: other users may write to it and it lacks the sticky bit \(mode 0777\), so they can replace what it holds; using the private directory \S+ for temp files instead/);
    assert.deepEqual(readdirSync(runtime), [], 'dispose removes what was made in the fallback');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a 1777 temp dir: our dirs are made there and another user cannot rename them', { skip: NO_OTHER_UID }, async () => {
  const tmp = sharedDir(0o1777);
  try {
    const { r, got } = await raceTheSwapper(tmp, { traces: [null] }, {});
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.line.results[0].ok, true, JSON.stringify(r.line.results));
    assert.ok(got.seen.some((n) => n.startsWith('adt-ls-client-')), JSON.stringify(got));
    assert.ok(got.seen.some((n) => n.startsWith('adt-ls-pipe-')), JSON.stringify(got));
    assert.deepEqual(got.renamed, [], JSON.stringify(got));
    assert.ok(got.renameErrors.includes('EPERM') || got.renameErrors.includes('EACCES'), JSON.stringify(got));
    assert.doesNotMatch(r.stderr, /using the private directory/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a dataDir planted as a symlink is refused and its target keeps its mode', { skip: NO_OTHER_UID }, async () => {
  const shared = sharedDir(0o1777);
  const mine = privateDir();
  try {
    const target = join(mine, 'keep');
    mkdirSync(target, { mode: 0o755 });
    chmodSync(target, 0o755);
    const dataDir = join(shared, 'data');
    asNobody('ln', '-s', target, dataDir);
    const r = await victim('driver', { tmp: privateDir(), config: { dataDir } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.line.ok, false, JSON.stringify(r.line));
    assert.equal(r.line.code, 'ERR_UNSAFE_PATH');
    assert.equal(r.line.reason, 'symlink');
    assert.equal(r.line.path, dataDir);
    assert.match(r.line.message, /^refused the data dir \S+: it is a symbolic link$/);
    assert.equal(statSync(target).mode & 0o777, 0o755, 'the link target was chmodded');
  } finally {
    rmSync(shared, { recursive: true, force: true });
  }
});

test("a dataDir owned by another user is refused and left as it is", { skip: NO_OTHER_UID }, async () => {
  const shared = sharedDir(0o1777);
  try {
    const dataDir = join(shared, 'theirs');
    asNobody('mkdir', '-m', '0755', dataDir);
    const r = await victim('driver', { tmp: privateDir(), config: { dataDir } });
    assert.equal(r.line.ok, false, JSON.stringify(r.line));
    assert.equal(r.line.code, 'ERR_UNSAFE_PATH');
    assert.equal(r.line.reason, 'foreign-owner');
    assert.match(r.line.message, new RegExp(`it is owned by uid ${NOBODY_UID}, not by this user`));
    assert.equal(statSync(dataDir).mode & 0o777, 0o755);
    assert.deepEqual(readdirSync(dataDir), []);
  } finally {
    rmSync(shared, { recursive: true, force: true });
  }
});

test('a dataDir of ours is still created 0700, missing parents too', async () => {
  const base = privateDir();
  const dataDir = join(base, 'a', 'b');
  const r = await victim('driver', { tmp: privateDir(), config: { dataDir } });
  assert.equal(r.line.ok, true, JSON.stringify(r.line));
  for (const dir of [join(base, 'a'), dataDir]) assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
});

test('the stale sweep removes a bounded number of dead hosts\' dirs per start; later starts remove more', async () => {
  const tmp = childTmp();
  const deadPid = spawnSync('true').pid;
  const total = 300;
  for (let i = 0; i < total; i++) {
    const dir = join(tmp, `adt-ls-${i.toString(16).padStart(12, '0')}`);
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, '.adt-ls-owner'), `pid=${deadPid}\nstart=1\n`);
  }
  const left = () => readdirSync(tmp).filter((n) => /^adt-ls-[0-9a-f]{12}$/.test(n)).length;
  let before = total;
  for (let start = 0; start < 2; start++) {
    const r = await victim('driver', { tmp, config: {} });
    assert.equal(r.line.ok, true, r.stderr);
    const now = left();
    // One sweep per driver start: at least 8 and at most 64 dirs are judged (here all stale).
    assert.ok(before - now >= 8 && before - now <= 64, `removed ${before - now} of ${before} in one start`);
    before = now;
  }
});
