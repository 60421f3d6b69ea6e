// The install test (`npm run test:package`, CI lane `.ci/package`, after `npm run package`):
// installs the dist/ tarballs this machine can use (the root, its platform package, the
// simulator) into a fresh project as a user would, with a PATH holding no cargo or rustc,
// then imports and requires the package, runs a foundation client against the installed
// simulator and `npx adt-ls-native doctor --json`, checks the installed sizes and, on Linux,
// that the installed binary (the one the release publishes) needs at most GLIBC_2.28, and
// checks the load error when the platform package is missing or the platform is unsupported.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareDotted, highestGlibc } from './elf-versions.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const PLATFORM = `${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : process.platform === 'win32' ? '-msvc' : ''}`;
const PLATFORM_PKG = `adt-ls-native-${PLATFORM}`;
// Bounds from measurement (docs/packaging.md): root 83 kB installed, the linux-x64-gnu
// binary 8.3 MB; the margins absorb growth without letting a debug build (~65 MB) through.
const ROOT_MAX_BYTES = 200 * 1024;
const PLATFORM_MAX_BYTES = 12 * 1024 * 1024;
const STEP_MS = 180_000;
// Node 20's own floor, and what .ci/glibc-check builds against (docs/platforms.md#glibc-floor-linux).
const GLIBC_FLOOR = '2.28';

const work = mkdtempSync(join(tmpdir(), 'adt-ls-native-install-'));
const project = join(work, 'project');
const home = join(work, 'home');
const bin = join(work, 'bin');
after(() => rmSync(work, { recursive: true, force: true }));

/** node, npm and npx, plus the system directories (which hold no Rust toolchain). */
const env = {
  HOME: home,
  PATH: `${bin}:/usr/bin:/bin`,
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? home, '.npm'),
  npm_config_update_notifier: 'false',
  TMPDIR: work,
};

const sh = (script, opts = {}) => spawnSync('sh', ['-c', script], { cwd: project, env, encoding: 'utf8', timeout: STEP_MS, ...opts });
const node = (args) => spawnSync(process.execPath, args, { cwd: project, env, encoding: 'utf8', timeout: STEP_MS });
const duBytes = (dir) => {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? duBytes(path) : statSync(path).size;
  }
  return total;
};

let tarballs = [];
before(() => {
  // The release job's dist/ holds every platform's tarball; npm refuses the others here.
  const usable = [`adt-ls-native-${VERSION}.tgz`, `${PLATFORM_PKG}-${VERSION}.tgz`, `adt-ls-simulator-${VERSION}.tgz`];
  const names = readdirSync(DIST).filter((f) => usable.includes(f));
  tarballs = names.map((f) => join(DIST, f));
  for (const want of [`adt-ls-native-${VERSION}.tgz`, `${PLATFORM_PKG}-${VERSION}.tgz`]) {
    assert.ok(names.includes(want), `${want} missing in dist/ (${names.join(', ')}): run \`npm run package\` first`);
  }
  assert.ok(names.some((n) => n.startsWith('adt-ls-simulator-')), 'the simulator tarball is missing in dist/');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  for (const tool of ['npm', 'npx']) {
    symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  const install = sh(`npm install --no-audit --no-fund --prefer-offline ${tarballs.map((t) => `'${t}'`).join(' ')}`);
  assert.equal(install.status, 0, `npm install failed:\n${install.stdout}\n${install.stderr}`);
});

test('the fresh project has no Rust toolchain on PATH', () => {
  for (const tool of ['cargo', 'rustc']) {
    const which = sh(`command -v ${tool}`);
    assert.notEqual(which.status, 0, `${tool} found at ${which.stdout.trim()}`);
  }
});

test('the root package holds loader, ESM entry, declarations, the bin, README and LICENSE only; exact optionalDependencies', () => {
  const dir = join(project, 'node_modules', 'adt-ls-native');
  assert.deepEqual(readdirSync(dir).sort(), ['LICENSE', 'README.md', 'bin', 'index.d.mts', 'index.d.ts', 'index.js', 'index.mjs', 'package.json']);
  assert.deepEqual(readdirSync(join(dir, 'bin')), ['adt-ls-native.js']);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.optionalDependencies, {
    'adt-ls-native-linux-x64-gnu': VERSION,
    'adt-ls-native-darwin-arm64': VERSION,
    'adt-ls-native-darwin-x64': VERSION,
    'adt-ls-native-win32-x64-msvc': VERSION,
  });
  const platformDir = join(project, 'node_modules', PLATFORM_PKG);
  assert.deepEqual(readdirSync(platformDir).sort(), ['LICENSE', 'README.md', `adt-ls-native.${PLATFORM}.node`, 'package.json']);
});

test('installed sizes: root package small, platform package bounded', () => {
  const rootBytes = duBytes(join(project, 'node_modules', 'adt-ls-native'));
  const platformBytes = duBytes(join(project, 'node_modules', PLATFORM_PKG));
  console.log(`installed: adt-ls-native ${(rootBytes / 1024).toFixed(1)} kB, ${PLATFORM_PKG} ${(platformBytes / 1048576).toFixed(2)} MB`);
  assert.ok(rootBytes < ROOT_MAX_BYTES, `root package ${rootBytes} B >= ${ROOT_MAX_BYTES} B`);
  assert.ok(platformBytes < PLATFORM_MAX_BYTES, `platform package ${platformBytes} B >= ${PLATFORM_MAX_BYTES} B`);
});

test('the installed Linux binary needs at most GLIBC_2.28 (the release build, not this machine\'s native one)', { skip: process.platform !== 'linux' && 'ELF/glibc: Linux only' }, () => {
  const file = join(project, 'node_modules', PLATFORM_PKG, `adt-ls-native.${PLATFORM}.node`);
  const highest = highestGlibc(readFileSync(file));
  console.log(`${PLATFORM_PKG}: highest GLIBC_ version needed ${highest}`);
  assert.ok(highest, 'no GLIBC_ symbol versions found: not a glibc build?');
  assert.ok(compareDotted(highest, GLIBC_FLOOR) <= 0, `${file} needs GLIBC_${highest}, above the floor GLIBC_${GLIBC_FLOOR}`);
  const objdump = spawnSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (objdump.status === 0) {
    const seen = [...objdump.stdout.matchAll(/GLIBC_(\d+(?:\.\d+)*)/g)].map((m) => m[1]).sort(compareDotted).pop();
    assert.equal(highest, seen, 'the ELF reader and objdump -T disagree');
  }
});

test('require and import give the same exports', () => {
  writeFileSync(
    join(project, 'both.mjs'),
    [
      "import { createRequire } from 'node:module';",
      "import * as esm from 'adt-ls-native';",
      "const cjs = createRequire(import.meta.url)('adt-ls-native');",
      "if (typeof esm.createAdtLs !== 'function' || esm.createAdtLs !== cjs.createAdtLs || esm.AdtLsDriver !== cjs.AdtLsDriver) throw new Error('exports differ');",
      'console.log(Object.keys(cjs).length);',
    ].join('\n'),
  );
  writeFileSync(join(project, 'plain.cjs'), "const { basic } = require('adt-ls-native'); console.log(typeof basic);");
  const esm = node(['both.mjs']);
  assert.equal(esm.status, 0, esm.stderr);
  assert.ok(Number(esm.stdout) > 5, `only ${esm.stdout} exports`);
  const cjs = node(['plain.cjs']);
  assert.equal(cjs.status, 0, cjs.stderr);
  assert.equal(cjs.stdout.trim(), 'function');
});

test('a foundation client runs against the installed simulator', () => {
  const installed = sh(`npx --no-install adt-ls-simulator install --home '${home}'`);
  assert.equal(installed.status, 0, installed.stderr);
  const { binPath } = JSON.parse(installed.stdout);
  assert.ok(binPath.startsWith(home), binPath);
  writeFileSync(
    join(project, 'foundation.mjs'),
    [
      "import { createAdtLs } from 'adt-ls-native';",
      'const adt = await createAdtLs({ adtLs: { path: process.argv[2], extraEnv: { ADTLS_SIM_QUIET: "1" } } });',
      'try {',
      '  const caps = await adt.capabilities();',
      '  console.log(JSON.stringify({ tools: caps.tools.length, lsp: Object.keys(caps.lsp).length, health: adt.health() }));',
      '} finally {',
      '  await adt.dispose();',
      '}',
    ].join('\n'),
  );
  const run = node(['foundation.mjs', binPath]);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const out = JSON.parse(run.stdout.trim().split('\n').pop());
  assert.equal(out.tools, 20);
  assert.ok(out.lsp > 0);
  assert.equal(out.health.connected, false);
});

test('npx adt-ls-native doctor --json from the installed tarball: platform package, the installed simulator, its JRE', () => {
  const run = sh('npx --no-install adt-ls-native doctor --json');
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout);
  assert.equal(report.ok, true);
  assert.equal(report.runtime.name, 'node');
  assert.equal(report.runtime.nativePackage, PLATFORM_PKG);
  assert.ok(report.runtime.nativeBinary.includes(join('node_modules', PLATFORM_PKG)), report.runtime.nativeBinary);
  assert.ok(report.discovery.selected.startsWith(join(home, '.vscode', 'extensions')), report.discovery.selected);
  assert.equal(report.jre.cacerts.format, 'PKCS12');
  const usage = sh('npx --no-install adt-ls-native frobnicate');
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /Usage: adt-ls-native doctor/);
});

test('an unsupported platform names the supported ones', () => {
  writeFileSync(join(project, 'fake-arch.cjs'), "Object.defineProperty(process, 'arch', { value: 'ia32' });");
  const run = node(['-r', './fake-arch.cjs', '-e', "try { require('adt-ls-native') } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }"]);
  assert.equal(run.status, 0, run.stderr);
  const { code, message } = JSON.parse(run.stdout);
  assert.equal(code, 'ERR_UNSUPPORTED_PLATFORM');
  assert.match(message, new RegExp(`no binary for ${process.platform}-ia32`));
  assert.match(message, /linux-x64-gnu, darwin-arm64, darwin-x64, win32-x64-msvc/);
  assert.doesNotMatch(message, /npm has a bug/);
});

// Last: it removes the platform package from the project.
test('without the platform package the error names platform, package and fix', () => {
  rmSync(join(project, 'node_modules', PLATFORM_PKG), { recursive: true, force: true });
  const run = node(['-e', "try { require('adt-ls-native') } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, cause: !!e.cause })) }"]);
  assert.equal(run.status, 0, run.stderr);
  const { code, message, cause } = JSON.parse(run.stdout);
  assert.equal(code, 'ERR_NATIVE_BINDING_MISSING');
  const expected = [`Cannot find native binding for ${PLATFORM}: `, `${PLATFORM_PKG}@${VERSION}`, 'without --omit=optional / --no-optional'];
  for (const part of expected) assert.ok(message.includes(part), `${part} not in: ${message}`);
  assert.doesNotMatch(message, /npm has a bug|issues\/4828/);
  assert.ok(cause, 'the load errors stay available as error.cause');
  // A static import fails the process with the same message. (A try/catch around a dynamic
  // import() does not help on Node 20: an ESM `export *` over a throwing CommonJS module also
  // surfaces the error as uncaught, whatever the module.)
  writeFileSync(join(project, 'missing.mjs'), "import { createAdtLs } from 'adt-ls-native';\nconsole.log(typeof createAdtLs);");
  const esm = node(['missing.mjs']);
  assert.notEqual(esm.status, 0);
  for (const part of [...expected, "code: 'ERR_NATIVE_BINDING_MISSING'"]) assert.ok(esm.stderr.includes(part), `${part} not in: ${esm.stderr}`);
  assert.doesNotMatch(esm.stderr, /npm has a bug/);
});
