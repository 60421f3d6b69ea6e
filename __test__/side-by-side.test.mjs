// Side by side with npm `@marianfoo/adt-ls` 0.5.0 (docs/decisions.md#d3): one scenario set (driver
// handshake and raw requests, foundation createAdtLs + capabilities(), connected search,
// source read, update, delete, create, activate, unit tests, navigation, transport list, MCP
// tools) run with 0.5.0 and with this package on the simulator (adt-ls 1.1.2), diffing what
// each returns and what each puts on the wire (LSP methods + params, MCP HTTP requests, MCP
// tool names + arguments).
// Every difference must match an allow-list entry citing the docs/compat.md section that
// explains it; anything else, and any entry that no longer explains anything, fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as reference from '@marianfoo/adt-ls';
import * as ours from '../index.js';
import { ROOT } from './helpers.mjs';
import { runScenario } from './fixtures/side-by-side/run.mjs';
import { differences, explain } from './fixtures/side-by-side/diff.mjs';
import { ALLOWED } from './fixtures/side-by-side/allowed.mjs';
import { findSystemKeytool } from '../simulator/lib/install/launchers.mjs';

// The connected scenario runs selfSigned: 0.5.0 builds its truststore with the bundled JRE's
// keytool, which the simulator's fake JRE delegates to a system keytool (a JDK). Without one,
// 0.5.0 cannot start that scenario at all (ours reads cacerts natively), so it is skipped.
const NO_KEYTOOL =
  process.env.ADTLS_SIM_KEYTOOL || findSystemKeytool('')
    ? undefined
    : 'no system keytool (JDK) for 0.5.0\'s truststore in the connected scenario (run .ci/install-system-packages)';
const needsKeytool = (name) => (name === 'connected' ? NO_KEYTOOL : undefined);

const COMPAT = readFileSync(join(ROOT, 'docs', 'compat.md'), 'utf8');
const REFERENCE_VERSION = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@marianfoo', 'adt-ls', 'package.json'), 'utf8')).version;

/** The text of the `##`/`###` section of compat.md titled `title` (to the next heading), whitespace collapsed. */
function compatSection(title) {
  const lines = COMPAT.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && l.replace(/^#+ /, '') === title);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^#{2,3} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join(' ').replace(/\s+/g, ' ');
}

const show = (d) => JSON.stringify(d).slice(0, 600);

test('the reference side is npm @marianfoo/adt-ls 0.5.0', () => {
  assert.equal(REFERENCE_VERSION, '0.5.0');
  assert.equal(typeof reference.createAdtLs, 'function');
  assert.equal(typeof reference.AdtLsDriver, 'function');
});

test('every allow-list entry cites a docs/compat.md section that says it', () => {
  for (const entry of ALLOWED) {
    const section = compatSection(entry.compat.section);
    assert.ok(section !== undefined, `${entry.id}: docs/compat.md has no section "${entry.compat.section}"`);
    assert.ok(section.includes(entry.compat.text), `${entry.id}: section "${entry.compat.section}" does not mention ${entry.compat.text}`);
  }
});

const runs = new Map();
/** Both runs of a scenario, once per file (the self-check below reuses the connected one). */
function bothRuns(name) {
  if (!runs.has(name)) runs.set(name, (async () => ({ ref: await runScenario(name, reference), ours: await runScenario(name, ours) }))());
  return runs.get(name);
}

for (const name of ['driver', 'foundation', 'connected']) {
  test(`side by side: ${name}`, { timeout: 60_000, skip: needsKeytool(name) }, async () => {
    const { ref, ours: mine } = await bothRuns(name);
    // Both runs did the work: every step produced an outcome and the wire is not empty.
    assert.deepEqual(Object.keys(mine.results), Object.keys(ref.results));
    assert.ok(ref.lsp.length > 3 && mine.lsp.length > 3, 'both runs reached adt-ls');
    const { unexplained, unused } = explain(name, differences(ref, mine), ALLOWED);
    assert.deepEqual(unexplained.map(show), [], 'differences no docs/compat.md entry explains');
    assert.deepEqual(unused, [], 'allow-list entries that explained no difference (stale)');
  });
}

test('side by side: the connected scenario really compares (equal steps stay equal)', { timeout: 60_000, skip: NO_KEYTOOL }, async () => {
  const { ref, ours: mine } = await bothRuns('connected');
  // Calls both SDKs support on 1.1.2 return the same, and 0.5.0 really failed where expected.
  for (const step of ['health', 'search', 'resolveAffUri', 'sourceRead', 'readFile', 'documentSymbols', 'goToDefinition', 'checkSyntax', 'getUsers', 'update', 'readBack', 'transportList', 'listDestinations', 'rawTool']) {
    assert.ok(!('error' in mine.results[step]), `${step} failed on ours: ${mine.results[step].error}`);
    assert.deepEqual(mine.results[step], ref.results[step], step);
  }
  assert.match(mine.results.sourceRead.value, /^CLASS zcl_test DEFINITION/i);
  assert.ok(mine.results.search.value.references.length > 0);
  assert.match(mine.results.readBack.value, /^CLASS zcl_test_extra DEFINITION PUBLIC CREATE PUBLIC\./);
  // A changed param, an extra tool call or a changed result is caught.
  const tamper = structuredClone(mine);
  tamper.lsp.find((m) => m.method === 'adtLs/repository/quickSearch').params.maxResults = 7;
  tamper.tools.push({ name: 'abap_list_destinations', args: {} });
  tamper.results.getUsers = { value: [] };
  tamper.results.activate = { value: { success: false } };
  const { unexplained } = explain('connected', differences(ref, tamper), ALLOWED);
  assert.deepEqual(
    unexplained.map((d) => `${d.channel}:${d.step ?? d.side}:${d.item?.method ?? d.item?.name ?? ''}`).sort(),
    ['lsp:ours:adtLs/repository/quickSearch', 'lsp:ref:adtLs/repository/quickSearch', 'result:activate:', 'result:getUsers:', 'tool:ours:abap_list_destinations'],
  );
});
