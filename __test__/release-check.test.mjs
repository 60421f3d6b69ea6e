// scripts/release-check.mjs, the release job's gate (docs/packaging.md#the-release-workflow):
// it refuses tarballs whose versions or exact optionalDependencies disagree, a platform
// tarball without its binary, a git tag other than v<version>, an npm too old for trusted
// publishing and a CHANGELOG.md without the version's section; a prerelease goes out under
// the dist-tag `next`, never `latest`. The pure check is tested case by case, the command on
// tarballs made by `npm pack`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTriple } from '@napi-rs/cli';
import { checkRelease, distTagFor, versionAtLeast } from '../scripts/release-check.mjs';
import { ROOT, tempDir } from './helpers.mjs';

const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const PLATFORMS = rootPkg.napi.targets.map((t) => parseTriple(t).platformArchABI);
const napi = { packageName: 'adt-ls-native', binaryName: 'adt-ls-native', platforms: PLATFORMS };
const SIM = 'adt-ls-simulator';
const CHANGELOG = '# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-12-02\n\n### Added\n\n- x\n';

/** A consistent release at `version`; `edit(tarballsByName)` changes it. */
function release(version, edit = () => {}) {
  const optionalDependencies = Object.fromEntries(PLATFORMS.map((p) => [`adt-ls-native-${p}`, version]));
  const list = [
    { file: `dist/adt-ls-native-${version}.tgz`, manifest: { name: 'adt-ls-native', version, optionalDependencies }, entries: ['package/package.json', 'package/index.js'] },
    { file: `dist/${SIM}-${version}.tgz`, manifest: { name: SIM, version }, entries: ['package/package.json'] },
    ...PLATFORMS.map((p) => ({
      file: `dist/adt-ls-native-${p}-${version}.tgz`,
      manifest: { name: `adt-ls-native-${p}`, version },
      entries: ['package/package.json', `package/adt-ls-native.${p}.node`],
    })),
  ];
  edit(Object.fromEntries(list.map((t) => [t.manifest.name, t])), list);
  return list;
}
const check = (tarballs, extra = {}) => checkRelease({ tarballs, napi, simulatorName: SIM, ...extra });

test('a consistent release passes; platforms first, the simulator, the root last; latest for a release', () => {
  const result = check(release('0.2.0'), { gitTag: 'v0.2.0', npmVersion: '11.6.2', changelog: CHANGELOG });
  assert.deepEqual(result.problems, []);
  assert.equal(result.version, '0.2.0');
  assert.equal(result.distTag, 'latest');
  assert.deepEqual(result.order, [...PLATFORMS.map((p) => `dist/adt-ls-native-${p}-0.2.0.tgz`), `dist/${SIM}-0.2.0.tgz`, 'dist/adt-ls-native-0.2.0.tgz']);
});

test('a prerelease goes out under next, never latest', () => {
  assert.equal(check(release('0.2.0-rc.1')).distTag, 'next');
  assert.equal(distTagFor('1.0.0-beta.3'), 'next');
  assert.equal(distTagFor('1.0.0'), 'latest');
});

test('a platform package or the simulator at another version is refused', () => {
  const platform = check(release('0.2.0', (t) => { t['adt-ls-native-darwin-x64'].manifest.version = '0.1.9'; }));
  assert.deepEqual(platform.problems, ['adt-ls-native-darwin-x64 is 0.1.9, the root is 0.2.0']);
  const sim = check(release('0.2.0', (t) => { t[SIM].manifest.version = '0.2.1'; }));
  assert.deepEqual(sim.problems, [`${SIM} is 0.2.1, the root is 0.2.0`]);
});

test('optionalDependencies must be exactly one exact version per target', () => {
  const cases = {
    range: (deps) => { deps['adt-ls-native-linux-x64-gnu'] = '^0.2.0'; },
    older: (deps) => { deps['adt-ls-native-win32-x64-msvc'] = '0.1.0'; },
    missing: (deps) => { delete deps['adt-ls-native-darwin-arm64']; },
    extra: (deps) => { deps['adt-ls-native-linux-arm64-gnu'] = '0.2.0'; },
  };
  for (const [name, edit] of Object.entries(cases)) {
    const result = check(release('0.2.0', (t) => edit(t['adt-ls-native'].manifest.optionalDependencies)));
    assert.equal(result.problems.length, 1, `${name}: ${result.problems}`);
    assert.match(result.problems[0], /^the root's optionalDependencies .* are not exactly /, name);
  }
});

test('every platform tarball is required (unless --partial) and must hold its binary', () => {
  const without = (list) => list.filter((t) => t.manifest.name !== 'adt-ls-native-darwin-arm64');
  assert.deepEqual(check(without(release('0.2.0'))).problems, ['no tarball of adt-ls-native-darwin-arm64']);
  assert.deepEqual(check(without(release('0.2.0')), { partial: true }).problems, []);
  const empty = check(release('0.2.0', (t) => { t['adt-ls-native-linux-x64-gnu'].entries = ['package/package.json']; }));
  assert.deepEqual(empty.problems, ['dist/adt-ls-native-linux-x64-gnu-0.2.0.tgz does not hold adt-ls-native.linux-x64-gnu.node']);
  const stray = check(release('0.2.0', (_, list) => list.push({ file: 'dist/other-0.2.0.tgz', manifest: { name: 'other', version: '0.2.0' }, entries: [] })));
  assert.deepEqual(stray.problems, ['other is not a package of this release']);
  assert.deepEqual(check(release('0.2.0').slice(1)).problems, ['no tarball of the root package adt-ls-native']);
});

test('git tag, npm version (trusted publishing) and the CHANGELOG section', () => {
  assert.deepEqual(check(release('0.2.0'), { gitTag: 'v0.2.1' }).problems, ['the git tag v0.2.1 is not v0.2.0']);
  assert.match(check(release('0.2.0'), { npmVersion: '10.9.2' }).problems[0], /npm 10\.9\.2 cannot publish with trusted publishing \(OIDC\): it needs npm >= 11\.5\.1/);
  assert.equal(check(release('0.2.0'), { npmVersion: '11.4.2' }).problems.length, 1);
  assert.deepEqual(check(release('0.2.0'), { npmVersion: '11.5.1' }).problems, []);
  assert.deepEqual(check(release('0.3.0'), { changelog: CHANGELOG }).problems, ['CHANGELOG.md has no "## [0.3.0]" section (npm version 0.3.0 opens it)']);
  assert.ok(versionAtLeast('12.0.0', '11.5.1') && !versionAtLeast('11.5.0', '11.5.1'));
});

test('the command reads npm-packed tarballs: agreeing ones print the dist-tag, disagreeing ones are refused', () => {
  const t = tempDir('adt-ls-native-release-check-');
  try {
    const pack = (dist, manifest, files = {}) => {
      const dir = join(t.dir, 'src', `${manifest.name}-${manifest.version}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ license: 'Apache-2.0', ...manifest }));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const run = spawnSync('npm', ['pack', '--silent', '--pack-destination', dist], { cwd: dir, encoding: 'utf8', shell: process.platform === 'win32', timeout: 120_000 });
      assert.equal(run.status, 0, run.stderr);
    };
    const dist = (name) => {
      const dir = join(t.dir, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    };
    const platformManifest = (p, version) => ({ name: `adt-ls-native-${p}`, version, main: `adt-ls-native.${p}.node`, files: [`adt-ls-native.${p}.node`] });
    const version = '0.2.0-rc.1';
    const good = dist('good');
    pack(good, { name: 'adt-ls-native', version, optionalDependencies: Object.fromEntries(PLATFORMS.map((p) => [`adt-ls-native-${p}`, version])) });
    pack(good, { name: SIM, version });
    for (const p of PLATFORMS) pack(good, platformManifest(p, version), { [`adt-ls-native.${p}.node`]: 'binary' });
    const bad = dist('bad');
    for (const f of readdirSync(good).filter((f) => !f.startsWith('adt-ls-native-linux-x64-gnu-'))) copyFileSync(join(good, f), join(bad, f));
    pack(bad, platformManifest('linux-x64-gnu', '0.1.0'), { 'adt-ls-native.linux-x64-gnu.node': 'binary' });

    const script = join(ROOT, 'scripts', 'release-check.mjs');
    const passed = spawnSync(process.execPath, [script, '--dist', good, '--git-tag', `v${version}`], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(passed.status, 0, passed.stderr);
    assert.equal(passed.stdout, 'next\n');
    assert.match(passed.stderr, /6 tarballs agree on 0\.2\.0-rc\.1 \(dist-tag next\)/);
    const refused = spawnSync(process.execPath, [script, '--dist', bad], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr, 'release-check: refusing to publish:\n  - adt-ls-native-linux-x64-gnu is 0.1.0, the root is 0.2.0-rc.1\n');
  } finally {
    t.cleanup();
  }
});
