// A compromised adt-ls against the navigation methods built on the pure helpers
// (docs/security.md#pure-exports), through the simulator's forged results
// (ADTLS_SIM_LSP_RESULTS, here in an ADTLS_SIM_CONFIG file): a 32 × 10 KB legend in
// `initialize` and a 19 KB semantic-tokens answer (before: 1.66 GB peak in the host), a legend
// whose modifiers repeat past the cap, and 8,000 reversed formatting edits (before: a
// corrupted multi-megabyte "formatted" source).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE } from './fixtures/client/support.mjs';
import { ZCL_TEST, connectedClient, rejection } from './fixtures/namespaces/support.mjs';
import { TEST_TMP } from './helpers.mjs';

const TEST_OPTS = { timeout: 180_000 };
const PEAK_BOUND_MB = 200;
const open = [];
after(async () => {
  for (const env of open) await env.close();
});

/** A connected client whose simulated adt-ls advertises `legend` and forges `results`. */
async function hostileClient(legend, results) {
  const dir = mkdtempSync(join(TEST_TMP, 'hostile-'));
  const config = join(dir, 'sim-config.json');
  const provider = { ...FIXTURE.lsp.semanticTokensProvider, legend };
  writeFileSync(config, JSON.stringify({ capabilitiesPatch: { semanticTokensProvider: provider }, lspResults: results }));
  const env = await connectedClient({ ADTLS_SIM_CONFIG: config });
  open.push(env);
  return env.client;
}

const bigLegend = {
  tokenTypes: ['keyword', 'class'],
  tokenModifiers: Array.from({ length: 32 }, (_, i) => String.fromCharCode(65 + i).repeat(10_000)),
};
const everyBit = (n) => Array.from({ length: n }, () => [0, 1, 1, 1, -1]).flat();
const reversedEdits = Array.from({ length: 8000 }, () => ({ range: { start: { line: 5, character: 0 }, end: { line: 0, character: 0 } }, newText: '' }));

test('navigation.semanticTokens with a 32 × 10 KB legend and 1,000 tokens with every bit: shape kept, memory bounded', TEST_OPTS, async () => {
  const client = await hostileClient(bigLegend, {
    'textDocument/semanticTokens/full': { data: everyBit(1000) },
    'textDocument/formatting': reversedEdits,
  });
  const before = process.resourceUsage().maxRSS;
  const { legend, tokens } = await client.navigation.semanticTokens(ZCL_TEST);
  const peakMb = (process.resourceUsage().maxRSS - before) / 1024;
  assert.deepEqual(legend, bigLegend);
  assert.equal(tokens.length, 1000);
  assert.deepEqual(Object.keys(tokens[0]), ['line', 'character', 'length', 'tokenType', 'tokenModifiers']);
  assert.deepEqual({ ...tokens[999], tokenModifiers: tokens[999].tokenModifiers.length }, { line: 0, character: 1000, length: 1, tokenType: 'class', tokenModifiers: 32 });
  assert.ok(tokens.every((t) => t.tokenModifiers.every((m, b) => m === bigLegend.tokenModifiers[b])));
  assert.ok(peakMb < PEAK_BOUND_MB, `peak RSS grew by ${peakMb.toFixed(0)} MB`);

  // The same client: adt-ls's reversed formatting edits are refused, not applied.
  const e = await rejection(assert, client.navigation.format(ZCL_TEST));
  assert.equal(e.code, 'ERR_INVALID_TEXT_EDIT');
  assert.equal(
    e.message,
    'textDocument/formatting returned edits that cannot be applied: edits[0] starts after its end (start line 5, character 0; end line 0, character 0): a TextEdit range must not be reversed',
  );
  assert.equal(e.editIndex, 0);
  // The client keeps working.
  assert.equal((await client.navigation.semanticTokens(ZCL_TEST)).tokens.length, 1000);
});

test('navigation.semanticTokens with modifiers that repeat past the cap rejects with ERR_SEMANTIC_TOKENS_TOO_LARGE', TEST_OPTS, async () => {
  const legend = { tokenTypes: ['keyword'], tokenModifiers: Array.from({ length: 100_000 }, (_, i) => `m${i % 10}`) };
  const client = await hostileClient(legend, { 'textDocument/semanticTokens/full': { data: everyBit(40) } });
  const e = await rejection(assert, client.navigation.semanticTokens(ZCL_TEST));
  assert.equal(e.code, 'ERR_SEMANTIC_TOKENS_TOO_LARGE');
  assert.match(e.message, /^textDocument\/semanticTokens\/full: the decoded semantic tokens would hold 4000000 modifier names, more than the 1049856 allowed for 40 tokens/);
  // Hover primes the same request and ignores its answer: it still works.
  await client.navigation.hover(ZCL_TEST, { line: 1, character: 1 });
});
