// Contributors on every Node line of the CI matrix get a clean `npm install`: each package the
// committed package-lock.json installs on a CI platform (Linux, macOS, Windows; x64, arm64)
// declares an `engines.node` that the oldest supported release of that line satisfies, so npm
// prints no EBADENGINE warning. The npm `overrides` in package.json pin the two development
// dependencies whose latest releases need Node 22 (docs/packaging.md#node-20-contributors).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const semver = createRequire(import.meta.url)('semver');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

// The oldest release of each line contributors may use (README "Development"): the floors the
// development dependencies declare (@napi-rs/cli: ^20.17 || ^22.13 || >= 23.5).
const NODE_FLOORS = ['20.19.0', '22.13.0', '24.0.0'];
const CI_OS = ['linux', 'darwin', 'win32'];
const CI_CPU = ['x64', 'arm64'];

/** True when npm installs the lockfile entry on at least one CI platform. */
function installedOnCi(entry) {
  const allows = (list, v) => !list || list.includes(v) || (list.every((l) => l.startsWith('!')) && !list.includes(`!${v}`));
  return CI_OS.some((v) => allows(entry.os, v)) && CI_CPU.some((v) => allows(entry.cpu, v));
}

const entries = Object.entries(lock.packages).filter(([path, entry]) => path.startsWith('node_modules/') && installedOnCi(entry));

test('the lockfile covers the development tree (sanity: the packages this test is about are in it)', () => {
  const names = entries.map(([path]) => path);
  for (const wanted of ['node_modules/@napi-rs/cli', 'node_modules/@napi-rs/lzma', 'node_modules/@octokit/request', 'node_modules/content-type']) {
    assert.ok(names.some((n) => n === wanted || n.endsWith(`/${wanted}`)), `${wanted} not in package-lock.json`);
  }
  assert.ok(entries.length > 100, `only ${entries.length} entries`);
});

for (const node of [...NODE_FLOORS, process.versions.node]) {
  test(`every package npm installs on a CI platform accepts Node ${node}`, () => {
    const refused = entries
      .filter(([, entry]) => entry.engines?.node && !semver.satisfies(node, entry.engines.node, { includePrerelease: true }))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} (engines.node ${entry.engines.node})`);
    assert.deepEqual(refused, [], `EBADENGINE on Node ${node}`);
  });
}

test('the overrides that keep Node 20 clean are in place and resolved in the lockfile', () => {
  assert.deepEqual(pkg.overrides, {
    '@napi-rs/cross-toolchain': { '@napi-rs/lzma': '1.4.5' },
    '@octokit/request': { 'content-type': '2.1.0' },
  });
  const versionsOf = (name) => entries.filter(([path]) => path.endsWith(`node_modules/${name}`)).map(([, e]) => e.version);
  assert.deepEqual(versionsOf('@napi-rs/lzma'), ['1.4.5']);
  assert.ok(!versionsOf('content-type').some((v) => semver.major(v) >= 3), `content-type ${versionsOf('content-type')}`);
});
