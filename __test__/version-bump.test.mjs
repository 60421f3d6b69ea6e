// `npm version <x>` bumps every published package and opens the CHANGELOG section
// (docs/packaging.md#versions-and-the-changelog): package.json's `version` lifecycle script
// runs scripts/version.mjs, which is run here on a copy of this repository's package files
// after npm's own step (the root package.json at the new version), then checked with the
// release gate's rules.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers.mjs';

const SCRIPT = join(ROOT, 'scripts', 'version.mjs');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const platformDirs = readdirSync(join(ROOT, 'npm')).sort();

/** A copy of the package files with the root at `version`, as npm leaves it before `version`. */
function fixture(t, version, changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')) {
  const dir = join(t.dir, 'repo');
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(dir, file));
  for (const d of platformDirs) cpSync(join(ROOT, 'npm', d, 'package.json'), join(dir, 'npm', d, 'package.json'));
  mkdirSync(join(dir, 'simulator'), { recursive: true });
  cpSync(join(ROOT, 'simulator', 'package.json'), join(dir, 'simulator', 'package.json'));
  writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
  const pkg = readJson(join(dir, 'package.json'));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ ...pkg, version }, null, 2)}\n`);
  return dir;
}
const run = (dir, date = '2026-12-24') => spawnSync(process.execPath, [SCRIPT, '--root', dir, '--date', date], { encoding: 'utf8', timeout: 60_000 });

test('the version script is what npm version runs, and it stages every file it writes', () => {
  const script = readJson(join(ROOT, 'package.json')).scripts.version;
  assert.match(script, /^node scripts\/version\.mjs && npm run build:debug && git add /);
  const staged = script.split('git add ')[1].split(' ');
  for (const path of ['package.json', 'package-lock.json', 'npm', 'simulator/package.json', 'CHANGELOG.md', 'index.js', 'index.d.ts']) {
    assert.ok(staged.includes(path), `${path} is not staged by the version script`);
  }
});

test('npm version 0.2.0-rc.1: every package, the exact optionalDependencies, the lockfile, the CHANGELOG section', () => {
  const t = tempDir('adt-ls-native-version-');
  try {
    const dir = fixture(t, '0.2.0-rc.1');
    const result = run(dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /6 packages at 0\.2\.0-rc\.1; CHANGELOG\.md section \[0\.2\.0-rc\.1\] - 2026-12-24 opened/);
    const root = readJson(join(dir, 'package.json'));
    const expectedDeps = Object.fromEntries(platformDirs.map((d) => [`adt-ls-native-${d}`, '0.2.0-rc.1']));
    assert.deepEqual(root.optionalDependencies, expectedDeps);
    for (const d of platformDirs) assert.equal(readJson(join(dir, 'npm', d, 'package.json')).version, '0.2.0-rc.1', d);
    assert.equal(readJson(join(dir, 'simulator', 'package.json')).version, '0.2.0-rc.1');
    const lock = readJson(join(dir, 'package-lock.json'));
    assert.equal(lock.packages.simulator.version, '0.2.0-rc.1');
    assert.deepEqual(lock.packages[''].optionalDependencies, expectedDeps);
    const lockNames = Object.keys(lock.packages[''].optionalDependencies);
    assert.deepEqual(lockNames, [...lockNames].sort(), 'sorted by name, as npm writes the lockfile');
    // The other fields are kept (the metadata test's fields among them).
    assert.deepEqual(readJson(join(dir, 'npm', 'linux-x64-gnu', 'package.json')).repository, readJson(join(ROOT, 'npm', 'linux-x64-gnu', 'package.json')).repository);

    const changelog = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    const original = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    const lines = changelog.split('\n');
    const top = lines.indexOf('## [Unreleased]');
    assert.deepEqual(lines.slice(top, top + 3), ['## [Unreleased]', '', '## [0.2.0-rc.1] - 2026-12-24']);
    const entries = (text, from) => text.split('\n').slice(text.split('\n').indexOf(from) + 1).filter((l) => l.startsWith('- '));
    assert.deepEqual(entries(changelog, '## [0.2.0-rc.1] - 2026-12-24'), entries(original, '## [Unreleased]'));
    assert.ok(entries(original, '## [Unreleased]').length > 5);
    const web = root.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    assert.ok(changelog.endsWith(`[Unreleased]: ${web}/compare/v0.2.0-rc.1...HEAD\n[0.2.0-rc.1]: ${web}/releases/tag/v0.2.0-rc.1\n`), changelog.slice(-300));

    // The next release compares with this one, and the same version cannot be opened twice.
    const again = run(dir);
    assert.equal(again.status, 1);
    assert.equal(again.stderr, 'version: CHANGELOG.md already has a "## [0.2.0-rc.1]" section\n');
    const withEntry = changelog.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n\n- a fix\n');
    const next = fixture(t, '0.2.0', withEntry);
    assert.equal(run(next).status, 0);
    const nextLog = readFileSync(join(next, 'CHANGELOG.md'), 'utf8');
    assert.match(nextLog, /## \[0\.2\.0\] - 2026-12-24\n\n### Fixed\n\n- a fix\n\n## \[0\.2\.0-rc\.1\] - 2026-12-24\n/);
    assert.ok(nextLog.endsWith(`[Unreleased]: ${web}/compare/v0.2.0...HEAD\n[0.2.0]: ${web}/compare/v0.2.0-rc.1...v0.2.0\n[0.2.0-rc.1]: ${web}/releases/tag/v0.2.0-rc.1\n`), nextLog.slice(-300));
  } finally {
    t.cleanup();
  }
});

test('nothing under Unreleased: the bump is refused and no package.json is touched', () => {
  const t = tempDir('adt-ls-native-version-');
  try {
    const dir = fixture(t, '0.3.0', '# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-12-01\n\n- x\n');
    const before = readFileSync(join(dir, 'simulator', 'package.json'), 'utf8');
    const result = run(dir);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /nothing under "## \[Unreleased\]" to release as 0\.3\.0; add the entries first/);
    assert.equal(readFileSync(join(dir, 'simulator', 'package.json'), 'utf8'), before);
    assert.equal(run(dir, '24.12.2026').stderr, 'version: --date 24.12.2026 is not YYYY-MM-DD\n');
  } finally {
    t.cleanup();
  }
});
