// The generated index.d.ts accepts code written for @marianfoo/adt-ls 0.5.0 (its README
// examples, an exhaustive usage file, consumer code as users write it) and for the
// reference's additions, under tsc --strict (docs/decisions.md#d3): with module nodenext
// and with moduleResolution bundler, both with exactOptionalPropertyTypes and
// noUncheckedIndexedAccess. The strict configs also compile the structural parity checks
// generated from 0.5.0's and our declarations (support/type-parity.mjs). Also checks that
// `Symbol.asyncDispose` / `await using` type-check with and without lib
// esnext.disposable (and without @types/node).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { writeParityChecks } from './support/type-parity.mjs';

const CONFIGS = {
  'usage files type-check against index.d.ts with tsc --strict': 'tsconfig.json',
  'README, consumer code, reference additions and 0.5.0 parity checks type-check (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, module nodenext)':
    'tsconfig.strict-nodenext.json',
  'README, consumer code, reference additions and 0.5.0 parity checks type-check (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, moduleResolution bundler)':
    'tsconfig.strict-bundler.json',
  'Symbol.asyncDispose type-checks with lib es2022 (no esnext.disposable)': 'tsconfig.es2022.json',
  'Symbol.asyncDispose type-checks with lib es2022 and no @types/node': 'tsconfig.es2022-no-node.json',
  'await using type-checks with lib esnext': 'tsconfig.esnext.json',
  'await using type-checks with lib es2022 + esnext.disposable and no @types/node': 'tsconfig.esnext-no-node.json',
};

let parity;
before(() => {
  parity = writeParityChecks(ROOT);
});

/** tsc's output with each failing parity check named (the generated file's lines carry no names). */
function explain(output) {
  return output.replace(/^(.*parity-0\.5\.0\.mts)\((\d+),\d+\): error TS\d+: .*$/gm, (line, file, lineNo) => {
    const label = parity.labels.get(Number(lineNo));
    return label ? `${line}\n    parity check failed: ${label}` : line;
  });
}

test('the parity checks cover every export of 0.5.0 and every method of its AdtLsClient', () => {
  const source = readFileSync(parity.file, 'utf8');
  // One `// <name> (<kind> in 0.5.0)` header per 0.5.0 export, and the client's methods.
  const headers = source.match(/^\/\/ \w+ \((?:function|class|const|type) in 0\.5\.0\)$/gm) ?? [];
  // 0.5.0's bundled declarations end with one `export { ... }` statement naming every export.
  const theirs = readFileSync(join(ROOT, 'node_modules', '@marianfoo', 'adt-ls', 'dist', 'index.d.ts'), 'utf8');
  const list = /^export \{([^}]*)\};?$/m.exec(theirs)?.[1] ?? '';
  const names = list.split(',').map((s) => s.trim().replace(/^type /, '')).filter(Boolean);
  assert.ok(names.length > 0, "0.5.0's export list was not found");
  assert.deepEqual(headers.map((h) => h.split(' ')[1]).sort(), names.sort());
  for (const method of ['repository"]["search', 'navigation"]["hover', 'transport"]["getLockStatus', 'raw"]["tool']) {
    assert.ok(source.includes(`T.AdtLsClient["${method}"]`), `no check for ${method}`);
  }
});

for (const [name, config] of Object.entries(CONFIGS)) {
  test(name, () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', join(ROOT, '__test__', 'types', config)], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail(`tsc reported errors:\n${explain(`${e.stdout}${e.stderr}`)}`);
    }
  });
}
