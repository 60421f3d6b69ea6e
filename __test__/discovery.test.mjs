// Discovery through the public API, over fake editor installs laid out by the simulator's
// installer under a temporary HOME: sub-paths, explicit-path rules, env override, vendor,
// and "newest across VS Code, Cursor and Insiders".

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { platformSubPath, defaultExtensionDirs, resolveAdtLsPath, AdtLsDriver } from '../index.js';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { tempDir } from './helpers.mjs';

const saved = { HOME: process.env.HOME, ADT_LS_PATH: process.env.ADT_LS_PATH, cwd: process.cwd() };
let t;

before(() => {
  t = tempDir('adt-ls-native-home-');
});
after(() => {
  process.env.HOME = saved.HOME;
  if (saved.ADT_LS_PATH === undefined) delete process.env.ADT_LS_PATH;
  else process.env.ADT_LS_PATH = saved.ADT_LS_PATH;
  process.chdir(saved.cwd);
  t.cleanup();
});

function freshHome(name) {
  const home = join(t.dir, name);
  mkdirSync(home, { recursive: true });
  process.env.HOME = home;
  delete process.env.ADT_LS_PATH;
  process.chdir(home);
  return home;
}

test('platformSubPath per platform and arch', () => {
  assert.deepEqual(platformSubPath('darwin', 'arm64'), ['macosx', 'cocoa', 'aarch64', 'Adt-ls.app', 'Contents', 'MacOS', 'adt-ls']);
  assert.deepEqual(platformSubPath('darwin', 'x64'), ['macosx', 'cocoa', 'x86_64', 'Adt-ls.app', 'Contents', 'MacOS', 'adt-ls']);
  assert.deepEqual(platformSubPath('linux', 'x64'), ['linux', 'gtk', 'x86_64', 'adt-ls']);
  assert.deepEqual(platformSubPath('win32', 'x64'), ['win32', 'win32', 'x86_64', 'adt-lsc.exe']);
  assert.deepEqual(platformSubPath('linux', 'riscv64'), ['linux', 'gtk', 'riscv64', 'adt-ls']);
  assert.throws(() => platformSubPath('aix', 'x64'), /^Error: Unsupported platform: aix$/);
  assert.deepEqual(platformSubPath(), platformSubPath(process.platform, process.arch));
});

test('defaultExtensionDirs lists VS Code, Cursor and Insiders', () => {
  assert.deepEqual(defaultExtensionDirs('/h'), ['/h/.vscode/extensions', '/h/.cursor/extensions', '/h/.vscode-insiders/extensions']);
  const home = freshHome('defaults');
  assert.deepEqual(defaultExtensionDirs(), [join(home, '.vscode/extensions'), join(home, '.cursor/extensions'), join(home, '.vscode-insiders/extensions')]);
});

test('the newest install across editors wins; an incomplete newest one is skipped until complete', () => {
  const home = freshHome('newest');
  installFakeExtension({ home, editor: 'vscode', version: '1.0.1' });
  const cursor = installFakeExtension({ home, editor: 'cursor', version: '1.1.2' });
  installFakeExtension({ home, editor: 'insiders', version: '1.10.0', incomplete: true });
  assert.equal(resolveAdtLsPath(), cursor.binPath);
  const insiders = installFakeExtension({ home, editor: 'insiders', version: '1.10.0' });
  assert.equal(resolveAdtLsPath(), insiders.binPath);
  installFakeExtension({ home, editor: 'vscode', version: '1.9.9' });
  assert.equal(resolveAdtLsPath(), insiders.binPath, '1.10.0 beats 1.9.9 numerically');
});

test('the second of two explicit extension dirs is scanned; newest of two in one dir', () => {
  const home = freshHome('dirs');
  const a = installFakeExtension({ home, editor: 'vscode', version: '1.1.2' });
  const b = installFakeExtension({ home, editor: 'cursor', version: '1.1.3' });
  const empty = join(home, 'nothing-here');
  assert.equal(resolveAdtLsPath({ extensionsDirs: [empty, b.extensionsDir] }), b.binPath);
  installFakeExtension({ home, editor: 'vscode', version: '1.1.1' });
  assert.equal(resolveAdtLsPath({ extensionsDir: a.extensionsDir }), a.binPath);
});

test('each platform layout is found with its own sub-path', () => {
  const home = freshHome('platforms');
  for (const [platform, arch] of [['darwin', 'arm64'], ['darwin', 'x64'], ['win32', 'x64'], ['linux', 'x64']]) {
    const inst = installFakeExtension({ home, editor: 'vscode', version: '1.1.2', platform, arch });
    assert.equal(resolveAdtLsPath({ platform, arch }), inst.binPath, `${platform}-${arch}`);
  }
});

test('explicit paths: a file is used, a directory or a missing path throws, no fallback', () => {
  const home = freshHome('explicit');
  const inst = installFakeExtension({ home, editor: 'vscode', version: '1.1.2' });
  assert.equal(resolveAdtLsPath({ explicitPath: inst.binPath }), inst.binPath);
  assert.throws(() => resolveAdtLsPath({ explicitPath: home }), (e) => e.message === `Explicit adt-ls binary is not a file: ${home}. Check adtLs.path / ADT_LS_PATH.`);
  process.env.ADT_LS_PATH = join(home, 'missing', 'adt-ls');
  assert.throws(() => resolveAdtLsPath(), /Explicit adt-ls binary is not a file: .*missing.*Check adtLs\.path \/ ADT_LS_PATH\./);
  assert.equal(resolveAdtLsPath({ explicitPath: inst.binPath }), inst.binPath, 'the option beats the env var');
  process.env.ADT_LS_PATH = inst.binPath;
  assert.equal(resolveAdtLsPath(), inst.binPath);
  process.env.ADT_LS_PATH = '';
  assert.equal(resolveAdtLsPath(), inst.binPath, 'an empty ADT_LS_PATH counts as unset');
});

test('vendor/adt-ls under the repo root is found before extensions', () => {
  const home = freshHome('vendor');
  installFakeExtension({ home, editor: 'vscode', version: '1.1.2' });
  const repo = join(home, 'repo');
  const vendorBin = join(repo, 'vendor', 'adt-ls', ...platformSubPath());
  mkdirSync(join(vendorBin, '..'), { recursive: true });
  writeFileSync(vendorBin, '#!/bin/sh\n', { mode: 0o755 });
  assert.equal(resolveAdtLsPath({ repoRoot: repo }), vendorBin);
  process.chdir(repo);
  assert.equal(resolveAdtLsPath(), vendorBin, 'the repo root defaults to the current directory');
});

test('not found lists every path tried', () => {
  const home = freshHome('none');
  installFakeExtension({ home, editor: 'cursor', version: '1.1.2', incomplete: true });
  assert.throws(
    () => resolveAdtLsPath(),
    (e) => {
      assert.match(e.message, /^adt-ls binary not found\. Set ADT_LS_PATH, drop it in vendor\/adt-ls\/, or install the 'sapse\.adt-vscode' extension\. Tried:\n/);
      const lines = e.message.split('\n').slice(1);
      assert.equal(lines.length, 2);
      assert.match(lines[0], /^ {2}- .*vendor\/adt-ls\//);
      assert.match(lines[1], /^ {2}- .*sapse\.adt-vscode-1\.1\.2-/);
      return true;
    },
  );
});

test('a discovered simulator install starts like real adt-ls', async () => {
  const home = freshHome('start');
  installFakeExtension({ home, editor: 'vscode', version: '1.1.2' });
  const driver = new AdtLsDriver(resolveAdtLsPath(), { extraEnv: { ADTLS_SIM_QUIET: '1' } });
  const init = await driver.start(20000);
  assert.equal(init.serverInfo.name, 'ADTLS');
  await driver.dispose();
});
