// Bounds of the pure exports through the public API (docs/security.md#pure-exports): the
// semantic tokens share their legend strings instead of copying them per token (the memory
// cases run in a child process, which measures its own peak RSS, so an abort or a blow-up
// fails the test and not the runner), the modifier-name cap, text edits refused when a range
// is reversed or two overlap, a million edits in one pass (in a child bounded at 150 s), both helpers equal to 0.5.0's on
// valid input, and argument arrays whose `length` claims more than they hold.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as reference from '@marianfoo/adt-ls';
import { applyTextEdits, decodeSemanticTokens } from '../index.js';
import { ROOT, TEST_TMP } from './helpers.mjs';

const TEST_OPTS = { timeout: 180_000 };
/** Peak RSS growth a decode may cause; the former copies took 1.66 GB for 1,000 tokens. */
const PEAK_BOUND_MB = 200;
const edit = (sl, sc, el, ec, newText) => ({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, newText });

/** 32 modifiers of 10 KB each (the hostile legend). */
const bigLegendSource = `{ tokenTypes: ['type'], tokenModifiers: Array.from({ length: 32 }, (_, i) => String.fromCharCode(65 + i).repeat(10_000)) }`;

/**
 * Run `body` (ESM source with the addon's exports in scope) in a fresh runtime of the same
 * kind (Node or Bun) and return what it printed as JSON, with its exit status and signal.
 * The body is wrapped so the child reports its own peak RSS growth in MB as `peakMb`.
 */
function inChild(body) {
  const file = join(TEST_TMP, `pure-child-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `import * as api from ${JSON.stringify(join(ROOT, 'index.js'))};
const { applyTextEdits, decodeSemanticTokens, composeSpawnArgs } = api;
const before = process.resourceUsage().maxRSS;
const out = await (async () => { ${body} })();
out.peakMb = (process.resourceUsage().maxRSS - before) / 1024;
process.stdout.write(JSON.stringify(out));
`,
  );
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 150_000, maxBuffer: 16 * 1024 * 1024 });
  let out;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    out = undefined;
  }
  return { status: r.status, signal: r.signal, out, stderr: r.stderr.slice(-2000) };
}

test('decodeSemanticTokens: a 32 × 10 KB legend on 1,000 tokens with every bit (339 KB) stays far below the former 1.66 GB peak', TEST_OPTS, () => {
  const r = inChild(`
    const legend = ${bigLegendSource};
    const data = [];
    for (let i = 0; i < 1000; i++) data.push(0, 1, 1, 0, -1);
    const tokens = decodeSemanticTokens(data, legend);
    const all = tokens.every((t, i) => t.character === i + 1 && t.tokenType === 'type' &&
      t.tokenModifiers.length === 32 && t.tokenModifiers.every((m, b) => m === legend.tokenModifiers[b]));
    return { count: tokens.length, all, inputBytes: JSON.stringify([data, legend]).length };
  `);
  assert.equal(r.status, 0, `child failed (signal ${r.signal}): ${r.stderr}`);
  assert.ok(r.out.inputBytes > 330_000, `input ${r.out.inputBytes} bytes`);
  assert.equal(r.out.count, 1000);
  assert.equal(r.out.all, true, 'every token names all 32 modifiers, in legend order');
  assert.ok(r.out.peakMb < PEAK_BOUND_MB, `peak RSS grew by ${r.out.peakMb.toFixed(0)} MB`);
});

test('decodeSemanticTokens: 20,000 such tokens (380 KB) neither abort the process nor blow up its memory', TEST_OPTS, () => {
  const r = inChild(`
    const legend = ${bigLegendSource};
    const data = [];
    for (let i = 0; i < 20_000; i++) data.push(1, 0, 1, 0, -1);
    const tokens = decodeSemanticTokens(data, legend);
    const last = tokens.at(-1);
    return { count: tokens.length, line: last.line, names: last.tokenModifiers.length };
  `);
  assert.equal(r.status, 0, `child failed (signal ${r.signal}): ${r.stderr}`);
  assert.deepEqual([r.out.count, r.out.line, r.out.names], [20_000, 20_000, 32]);
  assert.ok(r.out.peakMb < PEAK_BOUND_MB, `peak RSS grew by ${r.out.peakMb.toFixed(0)} MB`);
});

test('decodeSemanticTokens: a legend longer than 32 modifiers, repeated by every bit, is refused past the cap', () => {
  // 100,000 one-letter modifiers: each token with every bit names all of them.
  const legend = { tokenTypes: [], tokenModifiers: Array.from({ length: 100_000 }, () => 'm') };
  const data = [];
  for (let i = 0; i < 20; i++) data.push(0, 1, 1, 0, -1);
  assert.throws(
    () => decodeSemanticTokens(data, legend),
    (e) => {
      assert.equal(e.code, 'ERR_SEMANTIC_TOKENS_TOO_LARGE');
      assert.match(e.message, /^the decoded semantic tokens would hold 2000000 modifier names, more than the 1049216 allowed for 20 tokens/);
      assert.equal(e.modifierNames, 2_000_000);
      assert.equal(e.limit, 1_049_216);
      return true;
    },
  );
  // Ten such tokens (1,000,000 names) are within the allowance, and equal 0.5.0's result.
  const ten = data.slice(0, 50);
  assert.deepEqual(decodeSemanticTokens(ten, legend), reference.decodeSemanticTokens(ten, legend));
});

test('decodeSemanticTokens equals 0.5.0 on random data and legends', () => {
  let seed = 7;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = 0; round < 200; round++) {
    const legend = {
      tokenTypes: Array.from({ length: rand(5) }, (_, i) => `t${i}`),
      tokenModifiers: Array.from({ length: rand(40) }, (_, i) => `m${i}`),
    };
    const data = Array.from({ length: rand(31) }, () => [rand(3) - 1, rand(9) - 2, rand(5), rand(7) - 1, rand(2 ** 31) - 2 ** 30][rand(5)]);
    assert.deepEqual(decodeSemanticTokens(data, legend), reference.decodeSemanticTokens(data, legend), JSON.stringify({ data, legend }));
  }
});

test('applyTextEdits: a reversed range is refused naming the edit (0.5.0 duplicated the text between its ends)', () => {
  assert.equal(reference.applyTextEdits('abcd', [edit(0, 3, 0, 1, 'X')]), 'abcXbcd');
  assert.throws(
    () => applyTextEdits('abcd', [edit(0, 0, 0, 0, '>'), edit(0, 3, 0, 1, 'X')]),
    (e) => {
      assert.equal(e.code, 'ERR_INVALID_TEXT_EDIT');
      assert.equal(e.message, 'edits[1] starts after its end (start line 0, character 3; end line 0, character 1): a TextEdit range must not be reversed');
      assert.equal(e.editIndex, 1);
      return true;
    },
  );
  // k reversed whole-text edits gave (k+1)× the text.
  const text = 'DATA x.\n'.repeat(100);
  const reversed = Array.from({ length: 8 }, () => edit(99, 99, 0, 0, ''));
  assert.ok(reference.applyTextEdits(text, reversed).length > 8 * text.length);
  assert.throws(() => applyTextEdits(text, reversed), { code: 'ERR_INVALID_TEXT_EDIT' });
});

test('applyTextEdits: overlapping edits are refused naming both; touching ones apply', () => {
  assert.throws(
    () => applyTextEdits('0123456789', [edit(0, 0, 0, 1, 'a'), edit(0, 4, 0, 6, 'x'), edit(0, 5, 0, 7, 'y')]),
    (e) => {
      assert.equal(e.code, 'ERR_INVALID_TEXT_EDIT');
      assert.equal(e.message, 'edits[1] and edits[2] overlap: LSP text edits must not overlap');
      assert.deepEqual([e.editIndex, e.otherEditIndex], [2, 1]);
      return true;
    },
  );
  assert.throws(() => applyTextEdits('abcdef', [edit(0, 1, 0, 4, 'R'), edit(0, 2, 0, 2, 'I')]), { code: 'ERR_INVALID_TEXT_EDIT' });
  assert.equal(applyTextEdits('aabbcc', [edit(0, 2, 0, 4, 'B'), edit(0, 0, 0, 2, 'A'), edit(0, 4, 0, 6, 'C')]), 'ABC');
  // Positions past a line or the text still clamp, as in 0.5.0.
  assert.equal(applyTextEdits('ab\ncd', [edit(0, 9, 0, 5, '!'), edit(7, 0, 1e9, 0, '?')]), 'ab!\ncd?');
});

test('applyTextEdits equals 0.5.0 on random valid edit lists', () => {
  let seed = 11;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pieces = ['a', 'b', '\n', '\r\n', '😀', 'é', ' '];
  for (let round = 0; round < 300; round++) {
    const text = Array.from({ length: rand(30) }, () => pieces[rand(pieces.length)]).join('');
    const lines = text.split('\n');
    const at = (offset) => {
      const before = text.slice(0, offset).split('\n');
      return { line: before.length - 1, character: before.at(-1).length };
    };
    // Sorted cut points give touching, non-overlapping ranges; then shuffle them.
    const cuts = Array.from({ length: rand(8) }, () => rand(text.length + 1)).sort((x, y) => x - y);
    const edits = [];
    for (let i = 0; i + 1 < cuts.length; i += 2) {
      edits.push({ range: { start: at(cuts[i]), end: at(cuts[i + 1]) }, newText: pieces[rand(pieces.length)].repeat(rand(3)) });
    }
    if (rand(4) === 0) edits.push({ range: { start: { line: lines.length + 3, character: 0 }, end: { line: 1e9, character: 0 } }, newText: '!' });
    for (let i = edits.length - 1; i > 0; i--) {
      const j = rand(i + 1);
      [edits[i], edits[j]] = [edits[j], edits[i]];
    }
    assert.equal(applyTextEdits(text, edits), reference.applyTextEdits(text, edits), JSON.stringify({ text, edits }));
  }
});

test('applyTextEdits: a million one-character edits complete (the former engine needed 5 minutes)', TEST_OPTS, () => {
  // In a child with a bound of 150 s (a synchronous call cannot be timed out in-process);
  // one pass takes seconds, even on a loaded machine with the debug build.
  const r = inChild(`
    const n = 1_000_000;
    const text = 'ab'.repeat(n / 2);
    const edits = new Array(n);
    for (let i = 0; i < n; i++) edits[i] = { range: { start: { line: 0, character: n - 1 - i }, end: { line: 0, character: n - i } }, newText: i % 2 === 0 ? 'B' : 'A' };
    const out = applyTextEdits(text, edits);
    return { ok: out === 'AB'.repeat(n / 2) };
  `);
  assert.equal(r.status, 0, `child failed or was stopped after 150 s (signal ${r.signal}): ${r.stderr}`);
  assert.equal(r.out.ok, true);
});

test('array arguments whose length claims more than they hold fail at once instead of aborting', TEST_OPTS, () => {
  const r = inChild(`
    const sparse = [];
    sparse.length = 2 ** 32 - 1;
    const codes = [];
    for (const call of [
      () => composeSpawnArgs({ dataDir: '/d', pipeName: 'p', extraArgs: sparse }),
      () => decodeSemanticTokens([], { tokenTypes: sparse, tokenModifiers: [] }),
      () => decodeSemanticTokens([], { tokenTypes: [], tokenModifiers: sparse }),
    ]) {
      try { call(); codes.push('no error'); } catch (e) { codes.push(e.code + ': ' + e.message); }
    }
    return { codes };
  `);
  assert.equal(r.status, 0, `child failed (signal ${r.signal}): ${r.stderr}`);
  assert.deepEqual(r.out.codes, [
    'ERR_INVALID_ARG_TYPE: opts.extraArgs[0] must be a string, received undefined',
    'ERR_INVALID_ARG_TYPE: legend.tokenTypes[0] must be a string, received undefined',
    'ERR_INVALID_ARG_TYPE: legend.tokenModifiers[0] must be a string, received undefined',
  ]);
});
