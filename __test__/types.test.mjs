// The generated index.d.ts accepts code written for @marianfoo/adt-ls 0.5.0 (its README
// examples and an exhaustive usage file) and for the reference's additions, under
// tsc --strict (decisions D3). Also checks the ESM entry's type resolution.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

test('usage files type-check against index.d.ts with tsc --strict', () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', join(ROOT, '__test__', 'types', 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc reported errors:\n${e.stdout}${e.stderr}`);
  }
});
