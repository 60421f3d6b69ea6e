// The Windows lane (.ci/windows-lane runs it with Windows node.exe under Wine; the release
// workflow on windows-latest): named so the Linux node/Bun suites do not collect it (Bun
// 1.4.5 ran out of memory with it in the full run); skipped, visibly, off Windows: the simulator installed as a fake editor extension whose
// `adt-lsc.exe` is a real Windows executable (simulator/lib/install/win32-launcher.c),
// discovered with Windows paths, driven over a named pipe; requests and server requests,
// dispose killing the process tree, failed starts leaving nothing, a foundation client
// with MCP, the doctor CLI (--json) on a Windows install. Wine differences are named where
// they matter (docs/platforms.md).

import { test } from 'node:test';
import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { join, win32 } from 'node:path';
import { AdtLsDriver, createAdtLs, defaultExtensionDirs, resolveAdtLsPath } from '../index.js';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { ROOT, TEST_TMP, readTrace, ourTempEntries, until } from './helpers.mjs';

const skip =
  process.platform !== 'win32'
    ? 'Windows lane only (.ci/windows-lane runs it under Wine with Windows node.exe)'
    : !process.env.ADTLS_SIM_WIN_LAUNCHER
      ? 'ADTLS_SIM_WIN_LAUNCHER (the built win32-launcher.c) is not set'
      : false;

let seq = 0;
/** A fresh home with the simulator installed; its adt-lsc.exe found by discovery. */
function installed() {
  const home = mkdtempSync(join(TEST_TMP, `home-${seq++}-`));
  const install = installFakeExtension({ home, editor: 'vscode', version: '1.1.2' });
  const found = resolveAdtLsPath({ extensionsDirs: defaultExtensionDirs(home) });
  return { home, install, found };
}

/** Is a process with this pid still running? (process.kill(pid, 0) works on Windows.) */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const startPid = (file) => readTrace(file).find((e) => e.event === 'start')?.pid;

test('discovery: Windows paths to the win32 layout and a real adt-lsc.exe', { skip }, () => {
  const { home, install, found } = installed();
  assert.equal(found, install.binPath);
  assert.ok(win32.isAbsolute(found) && /^[A-Za-z]:\\/.test(found), found);
  assert.ok(found.startsWith(home), `${found} under ${home}`);
  assert.match(found, /\\sapse\.adt-vscode-1\.1\.2-win32-x64\\adt-ls\\win32\\win32\\x86_64\\adt-lsc\.exe$/);
  assert.ok(existsSync(`${found}.launch`));
});

test('driver: start over a named pipe, requests, server requests, dispose kills the tree', { skip }, async () => {
  const { found } = installed();
  const trace = join(mkdtempSync(join(TEST_TMP, 'trace-')), 'trace.jsonl');
  const before = new Set(ourTempEntries());
  const driver = new AdtLsDriver(found, {
    extraEnv: { ADTLS_SIM_QUIET: '1', ADTLS_SIM_TRACE: trace, ADTLS_SIM_ECHO_PIPE: '1' },
    requestHandlers: { 'custom/ask': async (params) => ({ got: params }) },
  });
  const init = await driver.start(60_000);
  assert.equal(init.serverInfo.name, 'ADTLS');
  assert.match(init.capabilities.testPipe, /^\\\\\.\\pipe\\adt-ls-[0-9a-f]{12}$/, 'a named pipe, not a socket file');
  assert.deepEqual(await driver.sendRequest('sim/echo', { a: [1, 'ü'] }), { a: [1, 'ü'] });
  // Server -> client: the default handler, then a JS handler.
  assert.deepEqual(
    await driver.sendRequest('sim/askClient', { method: 'workspace/configuration', params: { items: [{}, {}] } }),
    { result: [null, null] },
  );
  assert.deepEqual(await driver.sendRequest('sim/askClient', { method: 'custom/ask', params: { q: 1 } }), { result: { got: { q: 1 } } });
  const simPid = startPid(trace);
  assert.ok(Number.isInteger(simPid) && alive(simPid), `simulator node.exe pid ${simPid} runs`);
  await driver.dispose();
  // The launcher is killed by the driver (Job Object); the simulator's node.exe, its
  // child, must die with it (taskkill /T is rejected by Wine; the Job Object covers it).
  assert.ok(await until(() => !alive(simPid), 10_000), `simulator pid ${simPid} survived dispose`);
  assert.deepEqual(ourTempEntries().filter((e) => !before.has(e)), [], 'no temp dir left');
});

test('dispose kills the whole tree of a wedged adt-ls (launcher + its node.exe child)', { skip }, async () => {
  const { found } = installed();
  const trace = join(mkdtempSync(join(TEST_TMP, 'trace-')), 'trace.jsonl');
  // The simulator drops the pipe and stays alive, like a wedged JVM: only a kill ends it.
  const driver = new AdtLsDriver(found, {
    extraEnv: { ADTLS_SIM_QUIET: '1', ADTLS_SIM_TRACE: trace, ADTLS_SIM_DROP_METHOD: 'sim/drop', ADTLS_SIM_DROP_AFTER: '0' },
  });
  await driver.start(60_000);
  await assert.rejects(driver.sendRequest('sim/drop'));
  const simPid = startPid(trace);
  assert.ok(Number.isInteger(simPid) && alive(simPid), `wedged simulator pid ${simPid} runs`);
  await driver.dispose();
  // Wine's taskkill rejects /T, so only the driver's Job Object can take the child down.
  assert.ok(await until(() => !alive(simPid), 10_000), `simulator pid ${simPid} (the launcher's child) survived dispose`);
});

test('a failed start leaves nothing behind: missing binary (ENOENT) and early exit', { skip }, async () => {
  const before = new Set(ourTempEntries());
  const missing = new AdtLsDriver('C:\\nonexistent\\dir\\adt-lsc.exe');
  await assert.rejects(missing.start(10_000), (e) => e.code === 'ENOENT' && /ENOENT/.test(e.message));
  const { found } = installed();
  const early = new AdtLsDriver(found, { extraEnv: { ADTLS_SIM_QUIET: '1', ADTLS_FIXTURE_MODE: 'exit' } });
  // The launcher passes the simulator's exit code and stderr through.
  await assert.rejects(early.start(60_000), (e) => {
    assert.match(e.message, /^adt-ls exited \(code 2\) before LSP connect\.\n/);
    assert.match(e.message, /Could not create the Java Virtual Machine/);
    return true;
  });
  await early.dispose();
  assert.ok(
    await until(() => ourTempEntries().filter((e) => !before.has(e)).length === 0, 10_000),
    `left behind: ${ourTempEntries().filter((e) => !before.has(e))}`,
  );
});

test('a foundation client with MCP on the Windows install', { skip }, async () => {
  const { found } = installed();
  const client = await createAdtLs({
    adtLs: { path: found, extraEnv: { ADTLS_SIM_QUIET: '1' }, startTimeoutMs: 60_000, requestTimeoutMs: 60_000 },
    mcpTimeoutMs: 60_000,
  });
  try {
    assert.deepEqual(await client.listDestinations(), []);
    assert.deepEqual(await client.raw.lsp('sim/echo', { hello: 'world' }), { hello: 'world' });
    const raw = await client.raw.tool('abap_list_destinations', {});
    assert.deepEqual(raw.content, [{ type: 'text', text: '[]' }]);
    const h = client.health();
    assert.equal(h.adtLsName, 'ADTLS');
    assert.ok(Number.isInteger(h.mcpPort) && h.mcpPort >= 2240, `mcpPort ${h.mcpPort}`);
  } finally {
    await client.dispose();
  }
});

test('doctor --json through the bin: the Windows winner and the rejected candidates', { skip }, async () => {
  const home = mkdtempSync(join(TEST_TMP, `doctor-home-${seq++}-`));
  installFakeExtension({ home, editor: 'vscode', version: '1.0.1' });
  const winner = installFakeExtension({ home, editor: 'cursor', version: '1.1.2' });
  installFakeExtension({ home, editor: 'insiders', version: '1.10.0', incomplete: true });
  installFakeExtension({ home, editor: 'vscode', version: '1.2.0', platform: 'darwin', arch: 'arm64' });
  const env = { ...process.env, USERPROFILE: home, HOME: home };
  delete env.ADT_LS_PATH;
  const run = await new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'bin', 'adt-ls-native.js'), 'doctor', '--json'], { env, cwd: home, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
  assert.equal(run.stderr, '', run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(run.code, 0, JSON.stringify(report.checks));
  assert.equal(report.runtime.platform, 'win32');
  assert.equal(report.runtime.nativeBinary, null, 'not determined on Windows (docs/doctor.md)');
  assert.equal(report.discovery.selected, winner.binPath);
  assert.match(report.discovery.selected, /^[A-Za-z]:\\.*\\sapse\.adt-vscode-1\.1\.2-win32-x64\\adt-ls\\win32\\win32\\x86_64\\adt-lsc\.exe$/);
  const rows = report.discovery.candidates.map((c) => [c.source, c.version, c.status, c.reasons.map((r) => r.code)]);
  assert.deepEqual(rows, [
    ['vendor', null, 'rejected', ['not-a-file']],
    ['insiders', '1.10.0', 'rejected', ['not-a-file']],
    ['vscode', '1.2.0', 'rejected', ['wrong-platform']],
    ['cursor', '1.1.2', 'selected', []],
    ['vscode', '1.0.1', 'not-chosen', ['too-old']],
  ]);
  assert.ok(report.discovery.candidates.every((c) => win32.isAbsolute(c.path) && !c.path.includes('/')), JSON.stringify(report.discovery.candidates));
  assert.match(report.discovery.candidates[2].reasons[0].message, /built for darwin-arm64/);
  const statusOf = (id) => report.checks.find((c) => c.id === id)?.status;
  assert.deepEqual([statusOf('adt-ls.discovery'), statusOf('adt-ls.version'), statusOf('adt-ls.executable')], ['ok', 'ok', 'ok']);
});
