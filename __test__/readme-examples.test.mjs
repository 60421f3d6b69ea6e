// The README's examples run as written. Every fenced block marked ```js runnable:<namespace>
// is written to a file inside this package (so `import ... from 'adt-ls-native'` resolves to
// this build by self-reference) and run as its own process under the current runtime (Node,
// or Bun under `bun test`) against the simulator: a simulated SAP system over TLS and the
// simulated adt-ls as an editor install. The example reads the system from SAP_URL,
// SAP_USER and SAP_PASSWORD and adt-ls from ADT_LS_PATH, as a user's script would. Each must
// exit 0, print what its section promises, write nothing to stderr and leave no temp files.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST_TMP, ourTempEntries } from './helpers.mjs';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { PASSWORD } from './fixtures/client/support.mjs';

/** The runnable examples in README order (Usage first, then one per client namespace), and what
 * each output must show. */
const EXPECTED = {
  events: [
    /^ATC 50\/100 Running ATC checks: half way$/m,
    /^relogon started reconnect$/m,
    /^relogon succeeded reconnect$/m,
    /^adt-ls exited, expected: true$/m,
  ],
  repository: [/^CL_ABAP_TYPEDESCR \S+/m, /^class cl_abap_\w+ definition/im, /^file cl_abap_\w+\.clas\.abap$/m, /^served: active$/m],
  source: [/^CLASS zcl_test DEFINITION/im, /^draft total: 90 active total: 100$/m],
  lifecycle: [/^activated: true diagnostics: 0$/m, /^deleted ZCL_README_[0-9A-Z]{1,6}$/m],
  navigation: [/^zcl_test -> .*\badd\b/m, /METHODS add/],
  quality: [/^ATC variants: .*\bDEFAULT\b/m, /^unit tests: PASSED$/m],
  services: [
    /^console output: 2 \+ 3 = 5$/m,
    /^services: \S+/m,
    /^OData V2: Service binding ZUI_SIM_FLIGHT_O2 unpublished successfully$/m,
    /^OData V2: Service binding ZUI_SIM_FLIGHT_O2 published successfully$/m,
  ],
  transport: [/^needs a transport: false$/m, /^\d+ transports, first: A4HK\d+/m, /^assigned: true locked in: A4HK900101$/m],
  raw: [/^users: [1-9]\d*$/m, /^destinations ok: true /m],
};

/** The README's runnable blocks: `{ name, code }` in document order. */
function runnableBlocks() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [];
  for (const m of readme.matchAll(/^```js runnable:([\w-]+)\n([\s\S]*?)^```$/gm)) blocks.push({ name: m[1], code: m[2] });
  return blocks;
}

const blocks = runnableBlocks();
const RUN_DIR = join(ROOT, 'target', `readme-examples-${process.pid}`);
let sap;
let baseEnv;

before(async () => {
  mkdirSync(RUN_DIR, { recursive: true });
  const home = mkdtempSync(join(TEST_TMP, 'readme-home-'));
  const { binPath } = installFakeExtension({ home });
  sap = await startSapBackend({ tls: 'self-signed' });
  baseEnv = {
    ...process.env,
    ADT_LS_PATH: binPath,
    SAP_URL: sap.url,
    SAP_USER: 'DEVELOPER',
    SAP_PASSWORD: PASSWORD,
    ADTLS_SIM_QUIET: '1',
  };
  delete baseEnv.DEBUG;
  delete baseEnv.NODE_OPTIONS;
});

after(async () => {
  await sap?.close();
  rmSync(RUN_DIR, { recursive: true, force: true });
});

/** Run a file with this runtime; resolves `{ code, signal, stdout, stderr }`, killed after `ms`. */
function run(file, env, ms = 90_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runnable examples of the Usage section that are not about one namespace. */
const USAGE_EXAMPLES = ['events'];

test('the README has exactly one runnable example per client namespace (and the Usage ones)', () => {
  assert.deepEqual(
    blocks.map((b) => b.name),
    Object.keys(EXPECTED),
  );
  for (const { name, code } of blocks) {
    assert.match(code, /from 'adt-ls-native'/, `${name}: imports the package as a user would`);
    if (!USAGE_EXAMPLES.includes(name)) assert.match(code, new RegExp(`\\badt\\.${name}\\.`), `${name}: uses its namespace`);
    assert.match(code, /await adt\.dispose\(\)/, `${name}: disposes the client`);
  }
});

for (const { name, code } of blocks) {
  test(`README example "${name}" runs against the simulator`, async () => {
    const file = join(RUN_DIR, `${name}.mjs`);
    writeFileSync(file, code);
    const tmp = mkdtempSync(join(TEST_TMP, `readme-${name}-`));
    const out = await run(file, { ...baseEnv, TMPDIR: tmp });
    const report = `exit ${out.code ?? out.signal}\n--- stdout\n${out.stdout}--- stderr\n${out.stderr}`;
    assert.equal(out.code, 0, report);
    assert.equal(out.stderr, '', report);
    for (const expected of EXPECTED[name]) assert.match(out.stdout, expected, report);
    assert.doesNotMatch(out.stdout, new RegExp(PASSWORD.replace(/[#]/g, '\\$&')), 'no secret in the output');
    assert.deepEqual(ourTempEntries(tmp), [], 'the example left no temp files');
  });
}
