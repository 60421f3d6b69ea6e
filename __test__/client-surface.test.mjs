// The public surface against its declarations: the client object holds exactly the methods
// the generated `AdtLsClient` declares (rendered from the Rust method registry), and the
// package exports at runtime exactly the values index.d.ts declares (no default export, no
// loader internals such as `__napiBindingTarget`), from require and import alike.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createAdtLs } from '../index.js';
import { nodeAdtLs, CLIENT_BOUNDS } from './fixtures/client/support.mjs';
import { declaredClientMethods, declaredValueExports, CLIENT_LIFECYCLE_MEMBERS } from './support/declared-api.mjs';

const require = createRequire(import.meta.url);

test('the declaration lists the 54 registry methods and transport.diffPages, each once', () => {
  const declared = declaredClientMethods();
  assert.equal(declared.length, 55);
  assert.equal(new Set(declared).size, declared.length);
  for (const name of ['capabilities', 'repository.search', 'raw.tool', 'transport.getDiff', 'transport.diffPages', 'navigation.semanticTokens']) {
    assert.ok(declared.includes(name), name);
  }
});

test('the client object has exactly the declared methods, namespaces and lifecycle members', async () => {
  const client = await createAdtLs({ adtLs: nodeAdtLs(), ...CLIENT_BOUNDS });
  try {
    const exposed = [];
    for (const [key, value] of Object.entries(client)) {
      if (typeof value === 'function') {
        exposed.push(key);
        continue;
      }
      assert.equal(typeof value, 'object', `${key} is a namespace object`);
      for (const [name, fn] of Object.entries(value)) {
        assert.equal(typeof fn, 'function', `${key}.${name}`);
        exposed.push(`${key}.${name}`);
      }
    }
    assert.deepEqual(exposed.sort(), [...declaredClientMethods(), ...CLIENT_LIFECYCLE_MEMBERS].sort());
    assert.equal(typeof client[Symbol.asyncDispose], 'function');
  } finally {
    await client.dispose();
  }
});

test('require() exports exactly the declared values: no default, no __napiBindingTarget', () => {
  const cjs = require('../index.js');
  const runtime = Object.keys(cjs).sort();
  assert.deepEqual(runtime, declaredValueExports().sort());
  assert.ok(!runtime.includes('default'));
  assert.ok(!('__napiBindingTarget' in cjs));
});

test('import exports exactly the declared values: no default, no __napiBindingTarget', async () => {
  const esm = await import('../index.mjs');
  const names = Object.keys(esm).sort();
  assert.deepEqual(names, declaredValueExports().sort());
  assert.ok(!('default' in esm), 'no default export at runtime, none declared');
  assert.ok(!declaredValueExports().includes('default'));
});
