// A script that uses a connected client (TLS proxy, MCP client, keep-alive, a logger) exits
// by itself after its last call, with and without dispose(), and leaves no adt-ls behind.
// Run by `npm run test:js` (the scenario under Node) and `npm run test:bun` (under Bun):
// the scenario runs in the runtime of the test runner. Nothing force-exits the runner, so a
// handle the library leaks keeps a scenario alive and fails here.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { ROOT, TEST_TMP, childTmp, marker, simulatorPids, until, ourTempEntries, readTrace, incoming } from './helpers.mjs';
import { PASSWORD } from './fixtures/client/support.mjs';

const SCENARIO = join(ROOT, '__test__', 'fixtures', 'connected-exit-scenario.mjs');
/** Generous: the machine may be loaded; a leaked handle keeps the script alive far longer. */
const EXIT_AFTER_DONE_MS = 15_000;
const WATCHDOG_MS = 120_000;

let sap;
let binPath;
before(async () => {
  sap = await startSapBackend({ tls: 'self-signed' });
  binPath = installFakeExtension({ home: mkdtempSync(join(TEST_TMP, 'home-')) }).binPath;
});
after(() => sap?.close());

function run(mode, mark, tmp, trace) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCENARIO, mode], {
      env: {
        ...process.env,
        ADTLS_TEST_MARKER: mark,
        TMPDIR: tmp,
        ADTLS_EXIT_SCENARIO: JSON.stringify({ binPath, systemUrl: sap.url, password: PASSWORD, trace }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let doneAt;
    child.stdout.resume();
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!doneAt && stderr.includes('done ')) doneAt = Date.now();
    });
    const watchdog = setTimeout(() => child.kill('SIGKILL'), WATCHDOG_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(watchdog);
      resolve({ code, signal, afterDoneMs: doneAt ? Date.now() - doneAt : undefined, stderr });
    });
  });
}

for (const mode of ['dispose', 'no-dispose']) {
  test(`a script with a connected client exits by itself after its last call (${mode})`, { timeout: WATCHDOG_MS + 30_000 }, async () => {
    const mark = marker();
    const tmp = childTmp();
    const trace = join(tmp, 'trace.jsonl');
    const r = await run(mode, mark, tmp, trace);
    assert.equal(r.signal, null, `still running after ${WATCHDOG_MS}ms, killed; stderr:\n${r.stderr}`);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.afterDoneMs !== undefined, `never reached its last call; stderr:\n${r.stderr}`);
    assert.ok(r.afterDoneMs < EXIT_AFTER_DONE_MS, `took ${r.afterDoneMs}ms to exit after its last call`);
    assert.match(r.stderr, /\[scenario\] info: /, 'the logger was in use');
    // It really was connected: logon, MCP server and the tool call went over the wire.
    const methods = incoming(readTrace(trace)).map((m) => m.method);
    for (const m of ['adtLs/destinations/ensureLoggedOn', 'adtLs/mcp/startMCPServer', 'adtLs/repository/quickSearch']) {
      assert.ok(methods.includes(m), `${m} on the wire: ${methods.join(', ')}`);
    }
    assert.ok(await until(() => simulatorPids(mark).length === 0, 10_000), `adt-ls still running: ${simulatorPids(mark)}`);
    assert.deepEqual(ourTempEntries(tmp), [], 'temp dirs or sockets left behind');
  });
}
