// The generated index.d.ts accepts code written for @marianfoo/adt-ls 0.5.0 (its README
// examples and an exhaustive usage file) and for the reference's additions, under
// tsc --strict (docs/decisions.md#d3). Also checks the ESM entry's type resolution, and that
// `Symbol.asyncDispose` / `await using` type-check with and without lib esnext.disposable
// (and without @types/node).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const CONFIGS = {
  'usage files type-check against index.d.ts with tsc --strict': 'tsconfig.json',
  'Symbol.asyncDispose type-checks with lib es2022 (no esnext.disposable)': 'tsconfig.es2022.json',
  'Symbol.asyncDispose type-checks with lib es2022 and no @types/node': 'tsconfig.es2022-no-node.json',
  'await using type-checks with lib esnext': 'tsconfig.esnext.json',
  'await using type-checks with lib es2022 + esnext.disposable and no @types/node': 'tsconfig.esnext-no-node.json',
};

for (const [name, config] of Object.entries(CONFIGS)) {
  test(name, () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', join(ROOT, '__test__', 'types', config)], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail(`tsc reported errors:\n${e.stdout}${e.stderr}`);
    }
  });
}
