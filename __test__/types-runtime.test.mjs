// The declarations and the runtime agree: the value exports index.d.ts declares
// are exactly what `require('adt-ls-native')` and `import('adt-ls-native')` give, no default
// export type-checks unless the runtime has one, and no `__napi*` loader internals are part
// of the public surface (declared or at runtime). Declared names are read with the compiler
// API, so nothing here lists exports by hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './helpers.mjs';
import { declarationProgram } from './support/declarations.mjs';

const require = createRequire(import.meta.url);
const DTS = join(ROOT, 'index.d.ts');

/** Value exports (functions, classes, constants) index.d.ts declares, sorted. */
function declaredValues() {
  return declarationProgram([DTS])
    .exportsOf(DTS)
    .filter((e) => e.kind !== 'type')
    .map((e) => e.name)
    .sort();
}

const runtimeNames = (namespace) => Object.keys(namespace).filter((k) => k !== 'default').sort();

test('the values index.d.ts declares are exactly what require() exports', () => {
  assert.deepEqual(declaredValues(), runtimeNames(require(ROOT)));
});

test('the values index.d.ts declares are exactly what import() exports', async () => {
  assert.deepEqual(declaredValues(), runtimeNames(await import('adt-ls-native')));
});

test('no __napi* loader internals in the declared or the runtime surface', async () => {
  const internal = (names) => names.filter((n) => n.startsWith('__napi'));
  assert.deepEqual(
    {
      declared: internal(declaredValues()),
      require: internal(runtimeNames(require(ROOT))),
      import: internal(runtimeNames(await import('adt-ls-native'))),
    },
    { declared: [], require: [], import: [] },
  );
});

/** Whether `import adt from 'adt-ls-native'` in an ES module type-checks under `settings`. */
function defaultImportTypeChecks(settings) {
  const dir = join(ROOT, 'target', 'type-parity');
  mkdirSync(dir, { recursive: true });
  const probe = join(dir, 'default-import-probe.mts');
  writeFileSync(probe, "import adt from 'adt-ls-native';\nexport const used: unknown = adt;\n");
  const program = ts.createProgram([probe], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    ...settings,
  });
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === probe);
  return errors.length === 0;
}

for (const [label, settings] of Object.entries({
  'module nodenext': { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  'moduleResolution bundler': { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
})) {
  test(`a default import type-checks (${label}) only if the ES module has a default export at runtime`, async () => {
    const runtime = 'default' in (await import('adt-ls-native'));
    assert.equal(
      defaultImportTypeChecks(settings),
      runtime,
      runtime ? 'the runtime has a default export the types do not declare' : "`import adt from 'adt-ls-native'` type-checks but the ES module has no default export",
    );
  });
}
