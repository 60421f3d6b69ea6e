// Pure exported helpers through the public API: version gate, spawn argv, text edits,
// semantic tokens, federated results, and the export inventory.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../index.js';
import {
  MINIMUM_ADT_LS_VERSION,
  REQUIRED_SAPSE_ADT_VSCODE_VERSION,
  VERIFIED_ADT_LS_VERSION,
  parseAdtLsVersion,
  isSupportedAdtLsVersion,
  assertSupportedAdtLsVersion,
  composeSpawnArgs,
  applyTextEdits,
  decodeSemanticTokens,
  parseFederated,
} from '../index.js';

const edit = (sl, sc, el, ec, newText) => ({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, newText });

test('version constants equal the reference', () => {
  assert.equal(MINIMUM_ADT_LS_VERSION, '1.1.2');
  assert.equal(REQUIRED_SAPSE_ADT_VSCODE_VERSION, '1.1.2');
  assert.equal(VERIFIED_ADT_LS_VERSION, '1.1.2.202608131517');
});

test('parseAdtLsVersion takes three integers followed by a dot or the end', () => {
  assert.deepEqual(parseAdtLsVersion('1.1.2.202608131517'), [1, 1, 2]);
  assert.deepEqual(parseAdtLsVersion('1.10.0'), [1, 10, 0]);
  assert.equal(parseAdtLsVersion('1.1'), undefined);
  assert.equal(parseAdtLsVersion('1.1.2-beta'), undefined);
  assert.equal(parseAdtLsVersion('v1.1.2'), undefined);
  assert.equal(parseAdtLsVersion(''), undefined);
  assert.equal(parseAdtLsVersion(undefined), undefined);
  assert.equal(parseAdtLsVersion(), undefined);
});

test('support boundaries follow the minimum 1.1.2 and ignore build suffixes', () => {
  for (const v of ['1.1.2', '1.1.2.0', '1.1.3', '1.1.3.0', '1.2.0', '2.0.0', '1.10.0']) assert.equal(isSupportedAdtLsVersion(v), true, v);
  for (const v of ['1.0.0', '1.0.1', '1.0.2.0', '1.1.1.999', '0.9.9', 'x', '']) assert.equal(isSupportedAdtLsVersion(v), false, v);
  assert.equal(isSupportedAdtLsVersion(undefined), false);
});

test('assertSupportedAdtLsVersion throws the reference text', () => {
  assert.doesNotThrow(() => assertSupportedAdtLsVersion('1.1.2.202608131517'));
  assert.throws(() => assertSupportedAdtLsVersion('1.0.1.202606111342'), (e) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /^Unsupported adt-ls version 1\.0\.1\.202606111342\. adt-ls-native requires adt-ls >= 1\.1\.2 \(verified 1\.1\.2\.202608131517\)\. Update the SAPSE\.adt-vscode extension or provide a newer ADT_LS_PATH\.$/);
    return true;
  });
  assert.throws(() => assertSupportedAdtLsVersion(undefined), /Unsupported adt-ls version <missing>\./);
});

test('composeSpawnArgs: five elements, extras first', () => {
  assert.deepEqual(composeSpawnArgs({ dataDir: '/d', pipeName: '/p.sock' }), ['-Djco.trace_path', '/d', '-data', '/d', '--pipe=/p.sock']);
  assert.deepEqual(composeSpawnArgs({ dataDir: 'C:\\d', pipeName: '\\\\.\\pipe\\adt-ls-abc', extraArgs: ['-consoleLog', '-Dx=1'] }), [
    '-consoleLog',
    '-Dx=1',
    '-Djco.trace_path',
    'C:\\d',
    '-data',
    'C:\\d',
    '--pipe=\\\\.\\pipe\\adt-ls-abc',
  ]);
  assert.deepEqual(composeSpawnArgs({ dataDir: '/d', pipeName: 'p', extraArgs: [] }).length, 5);
});

test('applyTextEdits: no edits, full replace, unordered, multi-line, sentinel, clamping', () => {
  assert.equal(applyTextEdits('abc', []), 'abc');
  assert.equal(applyTextEdits('abc', undefined), 'abc');
  assert.equal(applyTextEdits('abc', [edit(0, 0, 0, 3, 'xyz')]), 'xyz');
  assert.equal(applyTextEdits('hello world', [edit(0, 6, 0, 11, 'there'), edit(0, 0, 0, 5, 'HELLO')]), 'HELLO there');
  assert.equal(applyTextEdits('a\nbc\nd', [edit(1, 1, 2, 0, 'X')]), 'a\nbXd');
  assert.equal(applyTextEdits('line1\nline2', [edit(0, 0, 1e9, 0, 'all')]), 'all');
  assert.equal(applyTextEdits('ab\ncd', [edit(0, 99, 0, 99, '!')]), 'ab!\ncd');
  assert.equal(applyTextEdits('', [edit(0, 0, 0, 0, 'new')]), 'new');
});

test('applyTextEdits counts UTF-16 code units like JS strings (surrogate pairs, CRLF)', () => {
  const text = 'a😀b';
  assert.equal(text.length, 4);
  assert.equal(applyTextEdits(text, [edit(0, 3, 0, 4, 'B')]), 'a😀B');
  assert.equal(applyTextEdits(text, [edit(0, 1, 0, 3, '🎉')]), 'a🎉b');
  assert.equal(applyTextEdits('x\r\ny', [edit(1, 0, 1, 1, 'Y')]), 'x\r\nY');
  const js = (t, s, e, n) => t.slice(0, s) + n + t.slice(e);
  assert.equal(applyTextEdits('äöü€', [edit(0, 2, 0, 3, '-')]), js('äöü€', 2, 3, '-'));
});

test('decodeSemanticTokens resolves deltas, types and modifier bits', () => {
  const legend = { tokenTypes: ['namespace', 'class', 'keyword'], tokenModifiers: ['declaration', 'definition', 'readonly'] };
  assert.deepEqual(decodeSemanticTokens(undefined, legend), []);
  assert.deepEqual(decodeSemanticTokens([0, 2, 3, 1, 1, 0, 4, 2, 2, 0], legend), [
    { line: 0, character: 2, length: 3, tokenType: 'class', tokenModifiers: ['declaration'] },
    { line: 0, character: 6, length: 2, tokenType: 'keyword', tokenModifiers: [] },
  ]);
  assert.deepEqual(decodeSemanticTokens([2, 5, 1, 7, 5], legend), [
    { line: 2, character: 5, length: 1, tokenType: '7', tokenModifiers: ['declaration', 'readonly'] },
  ]);
  assert.deepEqual(decodeSemanticTokens([0, 1, 2, 0], legend), [], 'an incomplete tuple is ignored');
});

test('parseFederated prefers the text payload, then structuredContent, then the text', () => {
  assert.deepEqual(parseFederated({ content: [{ text: '{"a":1,"odataVersion":"V4"}' }], structuredContent: { a: 1 } }), {
    ok: true,
    data: { a: 1, odataVersion: 'V4' },
    text: '{"a":1,"odataVersion":"V4"}',
  });
  assert.deepEqual(parseFederated({ content: [{ text: 'not json' }], structuredContent: { s: true } }).data, { s: true });
  assert.deepEqual(parseFederated({ content: [{ text: 'plain' }] }), { ok: true, data: 'plain', text: 'plain' });
  assert.deepEqual(parseFederated({ isError: true, content: [{ text: '{"e":1}' }] }), { ok: false, data: { e: 1 }, text: '{"e":1}' });
  assert.deepEqual(parseFederated({}), { ok: true, data: '', text: '' });
});

test('the foundation exports exist with the reference kinds', () => {
  for (const fn of [
    'composeSpawnArgs',
    'resolveAdtLsPath',
    'defaultExtensionDirs',
    'platformSubPath',
    'parseAdtLsVersion',
    'isSupportedAdtLsVersion',
    'assertSupportedAdtLsVersion',
    'setLogger',
    'stderrLogger',
    'applyTextEdits',
    'decodeSemanticTokens',
    'parseFederated',
  ]) {
    assert.equal(typeof api[fn], 'function', fn);
  }
  assert.equal(typeof api.AdtLsDriver, 'function');
  assert.equal(typeof api.silentLogger, 'object');
  for (const level of ['debug', 'info', 'warn', 'error']) assert.equal(typeof api.silentLogger[level], 'function');
});

test('ESM and CommonJS entries expose the same objects', async () => {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const cjs = require('../index.js');
  const esm = await import('../index.mjs');
  assert.equal(esm.AdtLsDriver, cjs.AdtLsDriver);
  assert.equal(esm.applyTextEdits, cjs.applyTextEdits);
});
