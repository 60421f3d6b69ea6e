// The command line through the package's bin, as a script or CI job runs it, against the
// simulated adt-ls and SAP system: every command, object selection, the exit statuses
// (failed tests, findings, usage errors, a wrong password, a password on the command line, a
// missing adt-ls), stdout holding only the report, progress on stderr (plain lines, quiet, and
// a live line on a pseudo-terminal), and Ctrl-C cancelling the call in flight on the wire.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdtLs, basic } from '../index.js';
import { TEST_TMP, readTrace, incoming, until, simulatorPids, marker } from './helpers.mjs';
import { BIN, PASSWORD, REPORTS_CLASS, REPORTS_MAIN, startCliWorld, cli, cliChild, makeReportsClass } from './fixtures/cli/support.mjs';

let world;
const REF = `${REPORTS_CLASS}:CLAS/OC`;

before(async () => {
  world = await startCliWorld();
  await makeReportsClass(world, assert);
});
after(async () => {
  await world?.close();
});

const json = (run) => {
  assert.doesNotThrow(() => JSON.parse(run.stdout), `stdout is only the report: ${run.stdout}`);
  return JSON.parse(run.stdout);
};

test('search and read: json off a terminal, the source itself for read; --version and --include pass through', async () => {
  const found = await cli(world, ['search', 'ZCL_TEST*', '--type', 'CLAS']);
  assert.equal(found.code, 0, found.stderr);
  assert.deepEqual(json(found).references.map((r) => r.name), ['ZCL_TEST', 'ZCL_TEST_EXTRA']);
  const text = await cli(world, ['search', 'ZCL_TEST*', '--format', 'text']);
  assert.match(text.stdout, /^ZCL_TEST:CLAS\/OC\s+Simulator test class$/m);

  const read = await cli(world, ['read', 'ZCL_TEST', '--version', 'active']);
  assert.equal(read.code, 0, read.stderr);
  assert.match(read.stdout, /^CLASS zcl_test DEFINITION/);
  const include = await cli(world, ['read', REF, '--include', 'testclasses']);
  assert.match(include.stdout, /CLASS ltcl_sign DEFINITION/);
  const two = await cli(world, ['read', 'ZCL_TEST', REF, '--format', 'json']);
  assert.deepEqual(json(two).objects.map((o) => o.name), ['ZCL_TEST', REPORTS_CLASS]);
  assert.equal(json(two).objects[1].source, REPORTS_MAIN);
});

test('read --version: the active source or the logged-on user\'s draft of an object with a draft', async () => {
  const active = await cli(world, ['read', 'ZCL_SIM_ORDER:CLAS/OC', '--version', 'active']);
  assert.equal(active.code, 0, active.stderr);
  assert.match(active.stdout, /rv_total = 100\./);
  assert.doesNotMatch(active.stdout, /draft/);
  const draft = await cli(world, ['read', 'ZCL_SIM_ORDER:CLAS/OC', '--version', 'inactive']);
  assert.equal(draft.code, 0, draft.stderr);
  assert.match(draft.stdout, /rv_total = 90\./);
  const served = await cli(world, ['read', 'ZCL_SIM_ORDER:CLAS/OC']);
  assert.match(served.stdout, /rv_total = 90\./, 'without --version the served version is the draft');
  const bad = await cli(world, ['read', 'ZCL_SIM_ORDER:CLAS/OC', '--version', 'newest']);
  assert.equal(bad.code, 2, bad.stderr);
});

test('write from a file, activate; a broken source is not activated (exit 1, with the line)', async () => {
  const name = 'ZCL_CLI_WRITE';
  const client = await createAdtLs({
    adtLs: { path: world.binPath, extraEnv: { ADTLS_SIM_QUIET: '1' } },
    connection: { systemUrl: world.sap.url, selfSigned: true },
    auth: basic('DEVELOPER', PASSWORD),
  });
  await client.lifecycle.create({ name, objectType: 'CLAS/OC', packageName: '$TMP', description: 'write' });
  await client.dispose();
  const file = join(world.cwd, 'zcl_cli_write.clas.abap');
  const good = `CLASS ${name.toLowerCase()} DEFINITION PUBLIC FINAL CREATE PUBLIC.\n  PUBLIC SECTION.\n    METHODS run.\nENDCLASS.\nCLASS ${name.toLowerCase()} IMPLEMENTATION.\n  METHOD run.\n  ENDMETHOD.\nENDCLASS.\n`;
  writeFileSync(file, good.replace('  METHOD run.\n', '  METHOD run.\n    DATA lv TYPE i\n'));
  const written = await cli(world, ['write', `${name}:CLAS/OC`, '--file', file, '--format', 'json']);
  assert.equal(written.code, 0, written.stderr);
  assert.equal(json(written).written, true);
  const broken = await cli(world, ['activate', `${name}:CLAS/OC`, '--format', 'text']);
  assert.equal(broken.code, 1, broken.stderr);
  assert.match(broken.stdout, /^ZCL_CLI_WRITE:CLAS\/OC: not activated\n {2}line \d+: /);
  assert.match(broken.stderr, /adt-ls-native: activation failed for ZCL_CLI_WRITE:CLAS\/OC/);
  writeFileSync(file, good);
  assert.equal((await cli(world, ['write', `${name}:CLAS/OC`, '--file', file])).code, 0);
  const ok = await cli(world, ['activate', `${name}:CLAS/OC`]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(json(ok).objects.map((o) => o.success), [true]);
});

test('unit: a failing test exits 1 naming it; a passing object exits 0', async () => {
  const failing = await cli(world, ['unit', REF, '--format', 'text']);
  assert.equal(failing.code, 1, failing.stderr);
  assert.match(failing.stdout, /FAILED BROKEN \(\d\.\d{3} s\): sign is broken\n\s+at src\/zcl_cli_reports\.clas\.testclasses\.abap:11/);
  assert.match(failing.stderr, /adt-ls-native: 1 of 2 tests failed: ZCL_CLI_REPORTS\.LTCL_SIGN\.BROKEN\n$/);
  const passing = await cli(world, ['unit', 'ZCL_TEST']);
  assert.equal(passing.code, 0, passing.stderr);
  const [object] = json(passing).objects;
  assert.deepEqual([object.name, object.status, object.classes[0].methods[0].status], ['ZCL_TEST', 'PASSED', 'PASSED']);
});

test('atc: --fail-on decides the exit status; the default is error', async () => {
  const cases = [
    [[], 1, /1 of 3 ATC findings are at or above --fail-on error/],
    [['--fail-on', 'never'], 0, null],
    [['--fail-on', 'warning'], 1, /2 of 3 ATC findings are at or above --fail-on warning/],
    [['--fail-on', 'info'], 1, /3 of 3 ATC findings are at or above --fail-on info/],
  ];
  for (const [extra, code, message] of cases) {
    const run = await cli(world, ['atc', REF, ...extra]);
    assert.equal(run.code, code, `${extra}: ${run.stderr}`);
    assert.deepEqual(json(run).findings.map((f) => f.severity), ['error', 'info', 'warning']);
    if (message) assert.match(run.stderr, message);
  }
  const warningsOnly = await cli(world, ['atc', 'ZCL_TEST_EXTRA', 'ZCL_TEST']);
  assert.equal(warningsOnly.code, 0, warningsOnly.stderr);
  assert.equal(json(warningsOnly).findings.length, 1);
  const text = await cli(world, ['atc', REF, '--format', 'text', '--fail-on', 'never']);
  assert.match(text.stdout, /^src\/zcl_cli_reports\.clas\.abap:13:5: error: BREAK-POINT statement found \[CL_CI_TEST_EXTENDED_CHECK\/BREAK_POINT\]$/m);
  const variant = await cli(world, ['atc', REF, '--variant', 'NO_SUCH_VARIANT']);
  assert.equal(variant.code, 3, variant.stderr);
  assert.match(variant.stderr, /^adt-ls-native: adt-ls failed: .*Check variant NO_SUCH_VARIANT does not exist/m);
});

test('objects: a name alone is looked up; several matches fail listing them; none is not found', async () => {
  const client = await createAdtLs({
    adtLs: { path: world.binPath, extraEnv: { ADTLS_SIM_QUIET: '1' } },
    connection: { systemUrl: world.sap.url, selfSigned: true },
    auth: basic('DEVELOPER', PASSWORD),
  });
  // A class named like the seeded report ZSIM_REPORT (a program and a class may share a name).
  await client.lifecycle.create({ name: 'ZSIM_REPORT', objectType: 'CLAS/OC', packageName: '$TMP', description: 'Twin of the report' });
  await client.dispose();
  const many = await cli(world, ['atc', 'ZSIM_REPORT']);
  assert.equal(many.code, 2, many.stderr);
  assert.equal(many.stdout, '');
  assert.match(many.stderr, /^adt-ls-native: usage error: ZSIM_REPORT names 2 objects; pick one with NAME:TYPE or --type: ZSIM_REPORT:(PROG\/P|CLAS\/OC), ZSIM_REPORT:(PROG\/P|CLAS\/OC)\n$/);
  const picked = await cli(world, ['atc', 'ZSIM_REPORT', '--type', 'CLAS']);
  assert.equal(picked.code, 0, picked.stderr);
  const none = await cli(world, ['unit', 'ZCL_NOPE_NOPE']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /usage error: no object is named ZCL_NOPE_NOPE/);
});

test('transport list, check and the whole paged diff', async () => {
  const list = await cli(world, ['transport', 'list']);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(json(list).transports.some((t) => t.number === 'A4HK900101'));
  const check = await cli(world, ['transport', 'check', 'ZCL_SIM_FLIGHT_QUERY:CLAS/OC', '--format', 'text']);
  assert.match(check.stdout, /^ZCL_SIM_FLIGHT_QUERY:CLAS\/OC: a change needs a transport/);
  const diff = await cli(world, ['transport', 'diff', 'A4HK900101']);
  assert.equal(diff.code, 0, diff.stderr);
  assert.match(diff.stdout, /^[-+].*WHERE carrid = @iv_carrid/m);
  const pages = json(await cli(world, ['transport', 'diff', 'A4HK900101', '--format', 'json'])).pages;
  assert.ok(pages.length >= 2);
  assert.equal(pages.at(-1).batchInfo.status, 'completed');
});

test('tools, call and destinations work in foundation mode (no --url)', async () => {
  const base = ['--adt-ls-path', world.binPath];
  const tools = await cli(world, ['tools', ...base], { connected: false });
  assert.equal(tools.code, 0, tools.stderr);
  const list = json(tools).tools;
  assert.ok(list.length >= 20);
  assert.ok(list.every((t) => typeof t.name === 'string' && typeof t.inputSchema === 'object'));
  const call = await cli(world, ['call', 'abap_list_destinations', '--args', '{}', ...base], { connected: false });
  assert.equal(call.code, 0, call.stderr);
  assert.ok(Array.isArray(json(call).content));
  const bad = await cli(world, ['call', 'abap_atc_get_result', '--args', '{"worklistId":"W","destination":"X"}', ...base], { connected: false });
  assert.equal(bad.code, 1, bad.stderr);
  assert.match(bad.stderr, /the tool abap_atc_get_result answered with an error \(isError: true\)/);
  const notJson = await cli(world, ['call', 'x', '--args', '{nope', ...base], { connected: false });
  assert.equal(notJson.code, 2);
  const dests = await cli(world, ['destinations', ...base], { connected: false });
  assert.equal(dests.code, 0, dests.stderr);
  assert.ok(Array.isArray(json(dests).destinations));
  const needs = await cli(world, ['atc', 'ZCL_TEST', ...base], { connected: false });
  assert.equal(needs.code, 2);
  assert.match(needs.stderr, /usage error: atc needs an SAP system: give --url \(or ADT_LS_URL/);
});

test('exit 3: a wrong password says the logon failed, without the password', async () => {
  const wrong = 'Wrong#Pass-8812';
  const run = await cli(world, ['unit', REF], { env: { ADT_LS_PASSWORD: wrong } });
  assert.equal(run.code, 3, run.stderr);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^adt-ls-native: logon failed: .*wrong user or password/m);
  assert.ok(!run.stderr.includes(wrong));
});

test('exit 2: a password or token on the command line is refused, naming where it goes', async () => {
  for (const [args, where] of [
    [['atc', REF, '--password', 'Developer#1'], /ADT_LS_PASSWORD.*--password-stdin/],
    [['atc', REF, '--password=Developer#1'], /ADT_LS_PASSWORD.*--password-stdin/],
    [['tools', '--token', 'tok-1234'], /ADT_LS_BEARER_TOKEN/],
  ]) {
    const run = await cli(world, args, { connected: false });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, where);
    assert.ok(!run.stderr.includes('Developer#1') && !run.stderr.includes('tok-1234'), run.stderr);
  }
  const inUrl = await cli(world, ['tools', '--url', `https://DEVELOPER:${PASSWORD}@127.0.0.1:1`], { connected: false });
  assert.equal(inUrl.code, 2);
  assert.match(inUrl.stderr, /a password in the URL is refused.*ADT_LS_PASSWORD/);
  assert.ok(!inUrl.stderr.includes(PASSWORD));
});

test('--password-stdin reads the first line of stdin; the environment and a config file give the rest', async () => {
  const viaStdin = await cli(world, ['unit', 'ZCL_TEST', '--password-stdin'], { env: { ADT_LS_PASSWORD: '' }, input: `${PASSWORD}\nignored\n` });
  assert.equal(viaStdin.code, 0, viaStdin.stderr);
  const dir = mkdtempSync(join(TEST_TMP, 'cli-config-'));
  writeFileSync(join(dir, 'adt-ls.config.json'), JSON.stringify({ url: world.sap.url, selfSigned: true, adtLsPath: world.binPath }));
  const fromFiles = await cli(world, ['unit', 'ZCL_TEST'], { cwd: dir, connected: false, env: { ADT_LS_USER: 'DEVELOPER' } });
  assert.equal(fromFiles.code, 0, fromFiles.stderr);
  writeFileSync(join(dir, 'other.json'), JSON.stringify({ password: 'x' }));
  const secret = await cli(world, ['tools', '--config', join(dir, 'other.json')], { connected: false });
  assert.equal(secret.code, 2);
  assert.match(secret.stderr, /'password' is refused: secrets do not belong in a file/);
});

test('exit 3: no adt-ls anywhere gives the doctor\'s finding and fix', async () => {
  const empty = mkdtempSync(join(TEST_TMP, 'cli-empty-home-'));
  const run = await cli(world, ['tools'], { connected: false, env: { HOME: empty, USERPROFILE: empty }, cwd: empty });
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /^adt-ls-native: adt-ls not found: adt-ls binary not found\./m);
  assert.match(run.stderr, /\n {2}fix: install SAP's ABAP extension \(sapse\.adt-vscode\)/);
  assert.match(run.stderr, /`adt-ls-native doctor` lists every place it looked/);
});

test('usage errors exit 2 with the usage; --help and --version exit 0 on stdout', async () => {
  for (const args of [['atc'], ['atc', REF, '--format', 'junit'], ['unit', REF, '--jobs', '0'], ['nope'], ['read', 'X:NOTATYPE']]) {
    const run = await cli(world, args, { connected: false });
    assert.equal(run.code, 2, `${args}: ${run.stderr}`);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^adt-ls-native: usage error: /);
  }
  const help = await cli(world, ['atc', '--help'], { connected: false });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--fail-on <FAIL_ON>/);
  const version = await cli(world, ['--version'], { connected: false });
  assert.match(version.stdout, /^adt-ls-native \d+\.\d+\.\d+/);
});

test('progress: plain lines on stderr off a terminal, nothing with --quiet; --output gets the report', async () => {
  const plain = await cli(world, ['atc', 'ZCL_TEST_EXTRA', '--format', 'sarif']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stderr, /^adt-ls-native: atc \[0\/1\] ZCL_TEST_EXTRA:CLAS\/OC 50% /m);
  assert.match(plain.stderr, /^adt-ls-native: atc \[1\/1\] ZCL_TEST_EXTRA:CLAS\/OC 1 finding$/m);
  assert.equal(JSON.parse(plain.stdout).version, '2.1.0');
  const out = join(world.cwd, 'atc.sarif');
  const quiet = await cli(world, ['atc', 'ZCL_TEST_EXTRA', '--format', 'sarif', '--quiet', '--output', out]);
  assert.equal(quiet.code, 0);
  assert.equal(quiet.stderr, '');
  assert.equal(quiet.stdout, '');
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).runs[0].results.length, 1);
});

/** `script` from util-linux runs a command on a pseudo-terminal; undefined when absent. */
function scriptTool() {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return 'script';
  } catch {
    return undefined;
  }
}

test('progress on a terminal: one live line with the phase, the object and the percentage', async (t) => {
  if (process.platform === 'win32' || !scriptTool()) {
    t.skip('needs util-linux script (a pseudo-terminal)');
    return;
  }
  const out = join(world.cwd, 'tty-report.json');
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, BIN, 'atc', 'ZCL_TEST_EXTRA', ...world.args()].map(quote).join(' ') + ` > ${quote(out)}`;
  // Asynchronous: the simulated SAP system answers from this process's event loop.
  const screen = await new Promise((resolve, reject) => {
    execFile('script', ['-qefc', command, '/dev/null'], { env: world.env(), cwd: world.cwd, encoding: 'utf8', timeout: 90_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stdout}${stderr}`)) : resolve(stdout),
    );
  });
  assert.match(screen, /\r\x1b\[2Katc \[0\/1\] ZCL_TEST_EXTRA:CLAS\/OC 50% /);
  assert.match(screen, /\r\x1b\[2Katc \[1\/1\] ZCL_TEST_EXTRA:CLAS\/OC 1 finding\b/);
  assert.ok(!screen.includes('adt-ls-native: atc'), 'no plain lines on a terminal');
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).findings.length, 1, 'stdout (redirected) holds the report');
});

test('Ctrl-C: the call in flight is cancelled on the wire, adt-ls is disposed, exit 130', async (t) => {
  if (process.platform === 'win32') {
    t.skip('SIGINT to a process is a Unix signal (Windows: docs/cli.md#ctrl-c)');
    return;
  }
  const trace = join(world.cwd, `sigint-${Date.now()}.jsonl`);
  const mark = marker();
  const env = { ADTLS_SIM_TRACE: trace, ADTLS_SIM_DELAY_MS: '60000', ADTLS_SIM_DELAY_METHOD: 'adtLs/atc/runCheck', ADTLS_TEST_MARKER: mark };
  const { child, done } = cliChild(world, ['atc', 'ZCL_TEST_EXTRA', '--quiet'], { env });
  const sent = await until(() => incoming(readTrace(trace)).find((m) => m.method === 'adtLs/atc/runCheck'), 60_000, 50);
  assert.ok(sent, 'runCheck reached adt-ls');
  child.kill('SIGINT');
  const run = await done;
  assert.equal(run.code, 130, `${run.signal} ${run.stderr}`);
  assert.match(run.stderr, /^adt-ls-native: interrupted: the calls in flight were cancelled and adt-ls was stopped\n$/);
  assert.equal(run.stdout, '');
  const received = incoming(readTrace(trace));
  const cancel = received.findIndex((m) => m.method === '$/cancelRequest');
  assert.ok(cancel >= 0, 'the cancellation reached adt-ls');
  assert.equal(received[cancel].params.id, sent.id);
  const barrier = received.findIndex((m) => m.method === 'adt-ls-native/cancellationBarrier');
  assert.ok(barrier > cancel, 'adt-ls read the cancellation before the barrier request (docs/wire.md)');
  assert.ok(await until(() => simulatorPids(mark).length === 0, 10_000), `adt-ls still runs: ${simulatorPids(mark)}`);
});
