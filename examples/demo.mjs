// The quick-start demo (`npm run demo`).
//
// With a real adt-ls installed (ADT_LS_PATH, vendor/adt-ls/, or the newest sapse.adt-vscode
// install) it starts it; with ADTLS_DEMO_URL / ADTLS_DEMO_USER / ADTLS_DEMO_PASSWORD it also
// logs on to that SAP system (ADTLS_DEMO_SELF_SIGNED=1 for a self-signed one; the authoring
// lifecycle, which creates and deletes a $TMP class, runs there only with
// ADTLS_DEMO_LIFECYCLE=1). Without an adt-ls it runs the bundled simulator: a fake editor
// install in a temporary HOME and a simulated SAP system over real TLS, so the whole
// connected path, including the authoring lifecycle, runs offline.
//
//   npm run demo
//   ADTLS_DEMO_SIMULATOR=1 npm run demo    # always the simulator
//   ADTLS_DEMO_VERBOSE=1 npm run demo      # show the library's log on stderr

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basic, createAdtLs, resolveAdtLsPath, setLogger, stderrLogger } from '../index.js';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { startSapBackend } from '../simulator/lib/sap/index.mjs';

if (process.env.ADTLS_DEMO_VERBOSE) setLogger(stderrLogger('[demo]'));

const ms = (t0) => `${(performance.now() - t0).toFixed(0)} ms`;
const cleanups = [];

/** The options for a real adt-ls, or null when none is installed (or the simulator is asked for). */
function realAdtLs() {
  if (process.env.ADTLS_DEMO_SIMULATOR) return null;
  let path;
  try {
    path = resolveAdtLsPath();
  } catch (e) {
    console.log(`No adt-ls installed (${e.message.split('\n')[0]})`);
    return null;
  }
  const { ADTLS_DEMO_URL: url, ADTLS_DEMO_USER: user, ADTLS_DEMO_PASSWORD: password } = process.env;
  const label = `adt-ls at ${path}`;
  if (!url || !user || !password) return { label: `${label} (foundation mode)`, opts: { adtLs: { path } } };
  return {
    label: `${label}, SAP system ${url}`,
    opts: {
      adtLs: { path },
      connection: { systemUrl: url, selfSigned: process.env.ADTLS_DEMO_SELF_SIGNED === '1' },
      auth: basic(user, password),
    },
  };
}

/** The simulator: a fake install in a temporary HOME and a simulated SAP system. */
async function simulator() {
  const home = mkdtempSync(join(tmpdir(), 'adt-ls-demo-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const { binPath } = installFakeExtension({ home });
  const sap = await startSapBackend({ tls: 'self-signed', users: { DEVELOPER: 'Developer#1' } });
  cleanups.push(() => sap.close());
  return {
    label: `the adt-ls simulator and a simulated SAP system at ${sap.url} (self-signed TLS)`,
    opts: {
      adtLs: { path: binPath, extraEnv: { ADTLS_SIM_QUIET: '1' } },
      connection: { systemUrl: sap.url, selfSigned: true },
      auth: basic('DEVELOPER', 'Developer#1'),
    },
  };
}

/** Create a class in $TMP, write it, activate it, test it, look at it, delete it. */
async function authoringLifecycle(client) {
  const name = `ZCL_ADTLS_DEMO_${Date.now().toString(36).toUpperCase().slice(-5)}`;
  const ref = { name, objectType: 'CLAS/OC' };
  const lower = name.toLowerCase();
  const source = [
    `CLASS ${lower} DEFINITION PUBLIC FINAL CREATE PUBLIC.`,
    '  PUBLIC SECTION.',
    '    METHODS double IMPORTING iv_in TYPE i RETURNING VALUE(rv_out) TYPE i.',
    'ENDCLASS.',
    '',
    `CLASS ${lower} IMPLEMENTATION.`,
    '  METHOD double.',
    '    rv_out = iv_in * 2.',
    '  ENDMETHOD.',
    'ENDCLASS.',
    '',
  ].join('\n');
  const step = async (label, run) => {
    const t0 = performance.now();
    const result = await run();
    console.log(`  ${label.padEnd(34)} ${ms(t0).padStart(7)}  ${result ?? ''}`);
    return result;
  };
  console.log(`\nAuthoring lifecycle for ${name} in $TMP:`);
  let created = false;
  try {
    await step('create', async () => {
      const r = await client.lifecycle.create({ objectType: 'CLAS/OC', name, packageName: '$TMP', description: 'adt-ls-native demo' });
      created = true;
      return r.filePath;
    });
    await step('update source', () => client.lifecycle.update({ ...ref, source }));
    await step('activate', async () => {
      // onProgress: adt-ls's progress reports; timeoutMs: give up (and cancel on the wire) after 2 min.
      let reports = 0;
      const r = await client.lifecycle.activate({ ...ref, onProgress: () => reports++ }, { timeoutMs: 120_000 });
      return r.success ? `success (${reports} progress reports)` : `failed: ${JSON.stringify(r.diagnostics)}`;
    });
    await step('read back', async () => `${(await client.source.read(ref)).split('\n').length} lines`);
    await step('document symbols', async () => {
      const symbols = await client.navigation.documentSymbols(ref);
      const names = (Array.isArray(symbols) ? symbols : []).flatMap((s) => [s.name, ...(s.children ?? []).map((c) => c.name)]);
      return names.join(', ');
    });
    await step('run unit tests', async () => JSON.stringify(await client.lifecycle.runUnitTests(ref)));
    await step('transport check', async () => {
      const r = await client.transport.check(ref);
      return `recording required: ${r?.isRecordingRequired}`;
    });
  } finally {
    if (created) await step('delete', () => client.lifecycle.delete(ref));
  }
}

const target = realAdtLs() ?? (await simulator());
console.log(`Starting ${target.label} ...`);
let t0 = performance.now();
const client = await createAdtLs(target.opts);
client.on('relogon', (e) => console.log(`  (re-logon ${e.status}: ${e.reason})`));
client.once('exit', (e) => console.log(`adt-ls exited (${e.expected ? 'after dispose' : `unexpectedly: ${e.code ?? e.signal}`})`));
try {
  const health = client.health();
  console.log(`Ready in ${ms(t0)}: ${health.adtLsName} ${health.adtLsVersion}, MCP on port ${health.mcpPort}`);
  console.log(`Destination: ${health.connected ? `${health.destination} (logged on, backend live: ${health.backendLive})` : 'none (foundation mode)'}`);

  t0 = performance.now();
  const caps = await client.capabilities();
  const providers = Object.entries(caps.lsp)
    .filter(([k, v]) => k.endsWith('Provider') && v !== false)
    .map(([k]) => k.replace(/Provider$/, ''));
  console.log(`\nLSP capabilities: ${providers.join(', ')}`);
  console.log(`MCP tools (${caps.tools.length}, listed in ${ms(t0)}):`);
  for (const tool of caps.tools) {
    const summary = (tool.description ?? '').split('. ')[0].slice(0, 70);
    console.log(`  - ${tool.name.padEnd(50)} ${summary}`);
  }

  if (health.connected) {
    t0 = performance.now();
    const found = await client.repository.search('CL_ABAP_*', { types: ['CLAS/OC'], maxResults: 5 });
    console.log(`\nSearch CL_ABAP_* (${ms(t0)}): ${found.references.map((r) => r.name).join(', ')}`);
    if (!process.env.ADTLS_DEMO_URL || process.env.ADTLS_DEMO_LIFECYCLE === '1') await authoringLifecycle(client);
    else console.log('\n(Set ADTLS_DEMO_LIFECYCLE=1 to run the authoring lifecycle on this system: it creates and deletes a $TMP class.)');
  }
} finally {
  await client.dispose();
  for (const cleanup of cleanups.reverse()) await cleanup();
  console.log('\nDisposed: adt-ls stopped, proxy closed, temp files removed.');
}
