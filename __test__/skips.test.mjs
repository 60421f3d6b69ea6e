// The skip policy's pure logic (__test__/support/skips.mjs): every runner's report is read,
// and only skips on the allow-list pass CI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { parseReport, parseAllowed, unexpected, describeSkip } from './support/skips.mjs';

test('node, Bun and cargo skip reports are read with file, name and reason', () => {
  const js = parseReport('js', `${JSON.stringify({ file: join(ROOT, '__test__', 'a.test.mjs'), name: 'x', reason: 'privoxy not installed' })}\n`);
  assert.deepEqual(js, [{ runner: 'js', file: '__test__/a.test.mjs', name: 'x', reason: 'privoxy not installed' }]);
  const bun = parseReport(
    'bun',
    `<testsuite name="a.test.mjs" file="__test__/a.test.mjs">
    <testcase name="skipped &quot;one&quot;" classname="" time="0" file="__test__/a.test.mjs" line="2" assertions="0">
      <skipped />
    </testcase>
    <testcase name="fine" classname="" time="0.1" file="__test__/a.test.mjs" line="4" assertions="0" />
    <testcase name="inner" classname="outer &lt; 2" time="0" file="__test__/b.test.mjs" line="9" assertions="0">
      <skipped />
    </testcase>
    </testsuite>`,
  );
  assert.deepEqual(
    bun.map((s) => [s.file, s.name]),
    [
      ['__test__/a.test.mjs', 'skipped "one"'],
      ['__test__/b.test.mjs', 'outer < 2 > inner'],
    ],
  );
  const rust = parseReport('rust', 'tls::tests::t1\t`keytool` is not on PATH\n');
  assert.equal(describeSkip(rust[0]), 'rust: cargo test: tls::tests::t1: `keytool` is not on PATH');
});

test('only skips matching an allow-list line are expected; comments and blanks are ignored', () => {
  const allowed = parseAllowed('# why\n\n  bun: __test__/a.test.mjs: skipped  \n');
  assert.deepEqual(allowed, ['bun: __test__/a.test.mjs: skipped']);
  const skips = [
    { runner: 'bun', file: '__test__/a.test.mjs', name: 'skipped one', reason: '' },
    { runner: 'js', file: '__test__/a.test.mjs', name: 'skipped one', reason: 'r' },
  ];
  assert.deepEqual(unexpected(skips, allowed), [skips[1]]);
});

test('the checked-in allow-list holds only runtime limitations, each an exact test and explained', () => {
  const text = readFileSync(join(ROOT, '.ci', 'allowed-skips'), 'utf8');
  const allowed = parseAllowed(text);
  assert.ok(allowed.length > 0 && allowed.length <= 8, `a short list, got ${allowed.length}`);
  for (const entry of allowed) {
    // <runner>: <file>: <full test name> -- never a bare file or runner that would allow a whole lane.
    assert.match(entry, /^(bun|js|sim|rust): __test__\/[\w.-]+\.test\.mjs: .{10,}$/, entry);
    const lines = text.split('\n');
    const at = lines.indexOf(entry);
    assert.ok(at > 0 && lines[at - 1] !== undefined, entry);
    // the block the entry belongs to starts with a '#' explanation
    let k = at - 1;
    while (k >= 0 && lines[k].trim() !== '' && !lines[k].startsWith('#')) k--;
    assert.ok(k >= 0 && lines[k].startsWith('#'), `no explanation above: ${entry}`);
  }
});
