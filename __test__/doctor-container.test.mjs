// `npx adt-ls-native doctor`'s container checks through the package's bin
// (docs/doctor.md#container-readiness): the shared libraries of an ELF adt-ls (built here
// with gcc against stub libraries that are then removed, so they do not exist), the bundled
// JRE's start (a java that fails, one that never answers, JAVA_TOOL_OPTIONS kept out of the
// report), and the temp and data directories (missing ones fail with the fix).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { installFakeExtension } from '../simulator/lib/install.mjs';
import { ROOT, tempDir } from './helpers.mjs';

const BIN = join(ROOT, 'bin', 'adt-ls-native.js');
const LINUX = process.platform === 'linux';
const HAS_GCC = LINUX && spawnSync('gcc', ['--version'], { encoding: 'utf8' }).status === 0;
const NO_GCC = !LINUX ? 'the library check runs on Linux only' : !HAS_GCC && 'gcc is not installed (it builds the test ELF files; .ci/install-system-packages installs it)';
const POSIX_ONLY = process.platform === 'win32' && 'the fake java here is a #!/bin/sh script';
let t;
let home;

function doctor(args, { env = {}, cwd = home } = {}) {
  const childEnv = { ...process.env, HOME: home, USERPROFILE: home, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  if (!('ADT_LS_PATH' in env)) delete childEnv.ADT_LS_PATH;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'doctor', ...args], { env: childEnv, cwd, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}
async function doctorJson(args, opts) {
  const run = await doctor(['--json', ...args], opts);
  assert.equal(run.stderr, '', run.stderr);
  return { code: run.code, report: JSON.parse(run.stdout) };
}
const check = (report, id) => {
  const found = report.checks.find((c) => c.id === id);
  assert.ok(found, `no check ${id} in ${JSON.stringify(report.checks)}`);
  return found;
};
const gcc = (args) => {
  const run = spawnSync('gcc', args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, `gcc ${args.join(' ')}:\n${run.stderr}`);
};

/** A shared library `dir/<soname>` exporting `fn`, optionally needing `needs` (a library in `libDir`). */
function sharedLib(dir, soname, fn, needs) {
  mkdirSync(dir, { recursive: true });
  const src = join(dir, `${soname}.c`);
  writeFileSync(src, needs ? `int ${needs.fn}(void);\nint ${fn}(void) { return ${needs.fn}() + 1; }\n` : `int ${fn}(void) { return 42; }\n`);
  const link = needs ? ['-L', needs.dir, `-l:${needs.soname}`] : [];
  gcc(['-shared', '-fPIC', `-Wl,-soname,${soname}`, '-o', join(dir, soname), src, ...link]);
  rmSync(src);
}

before(() => {
  t = tempDir('adt-ls-native-doctor-container-');
  home = join(t.dir, 'home');
  mkdirSync(home, { recursive: true });
});
after(() => t?.cleanup());

test('an ELF adt-ls that needs a library which does not exist: the doctor names it and fails', { skip: NO_GCC }, async () => {
  const install = installFakeExtension({ home: join(t.dir, 'elf-home'), editor: 'vscode', version: '1.1.2' });
  // The binary needs libadtlsmissing.so.1; a library the install ships (in its JRE) needs
  // libadtlsbundled.so.1. Both stubs exist only while linking.
  const stubs = join(t.dir, 'stubs');
  sharedLib(stubs, 'libadtlsmissing.so.1', 'adtls_missing');
  sharedLib(stubs, 'libadtlsbundled.so.1', 'adtls_bundled');
  const jreLib = join(dirname(dirname(install.javaPath)), 'lib');
  sharedLib(jreLib, 'libadtlsjre.so', 'adtls_jre', { fn: 'adtls_bundled', dir: stubs, soname: 'libadtlsbundled.so.1' });
  const main = join(t.dir, 'main.c');
  writeFileSync(main, 'int adtls_missing(void);\nint main(void) { return adtls_missing() == 42 ? 0 : 1; }\n');
  rmSync(install.binPath);
  gcc(['-o', install.binPath, main, '-L', stubs, '-l:libadtlsmissing.so.1']);
  // With the stubs on LD_LIBRARY_PATH everything links (at most the table's run-time loads,
  // e.g. GTK on a machine without it, are missing: a warning).
  const linked = await doctorJson(['--adt-ls-path', install.binPath], { env: { LD_LIBRARY_PATH: `${join(t.dir, 'elsewhere')}:${stubs}` } });
  assert.notEqual(check(linked.report, 'adt-ls.libraries').status, 'fail', check(linked.report, 'adt-ls.libraries').message);
  assert.deepEqual(linked.report.libraries.missing.filter((m) => m.kind !== 'runtime'), []);
  assert.deepEqual(linked.report.libraries.search.ldLibraryPath, [join(t.dir, 'elsewhere'), stubs]);
  rmSync(stubs, { recursive: true });

  const { code, report } = await doctorJson(['--adt-ls-path', install.binPath], { env: { LD_LIBRARY_PATH: undefined } });
  assert.equal(code, 1, JSON.stringify(report.checks));
  const libs = check(report, 'adt-ls.libraries');
  assert.equal(libs.status, 'fail');
  assert.match(libs.message, /^1 library adt-ls needs cannot be found:\nlibadtlsmissing\.so\.1 \(needed by .*adt-ls; no package known\)/);
  assert.match(libs.message, /also \(loaded later\): libadtlsbundled\.so\.1 \(needed by .*libadtlsjre\.so; no package known\)/);
  assert.match(libs.fix, /install the packages that provide libadtlsmissing\.so\.1, libadtlsbundled\.so\.1/);
  const rows = report.libraries.missing.filter((m) => m.name.startsWith('libadtls'));
  assert.deepEqual(rows, [
    { name: 'libadtlsbundled.so.1', neededBy: [join(jreLib, 'libadtlsjre.so')], kind: 'bundled', debian: null, rhel: null },
    { name: 'libadtlsmissing.so.1', neededBy: [install.binPath], kind: 'linked', debian: null, rhel: null },
  ]);
  // libc resolves; whatever else is missing here is a run-time load of the table (with packages).
  for (const m of report.libraries.missing.filter((m) => !m.name.startsWith('libadtls'))) {
    assert.equal(m.kind, 'runtime', JSON.stringify(m));
    assert.ok(m.debian && m.rhel, JSON.stringify(m));
  }
  assert.equal(report.libraries.elf, true);
  assert.ok(report.libraries.objects >= 3, JSON.stringify(report.libraries));
  assert.equal(report.libraries.bundled, 1);

  const text = await doctor(['--adt-ls-path', install.binPath], { env: { LD_LIBRARY_PATH: undefined } });
  assert.equal(text.code, 1);
  assert.match(text.stdout, /\[FAIL\] adt-ls\.libraries +1 library adt-ls needs cannot be found:\n +libadtlsmissing\.so\.1 \(needed by /);
});

test('the bundled JRE must start: a java that fails, one that never answers (bounded by --timeout-ms), no JAVA_TOOL_OPTIONS echo', { skip: POSIX_ONLY }, async () => {
  const install = installFakeExtension({ home: join(t.dir, 'java-home'), editor: 'cursor', version: '1.1.2' });
  const ok = await doctorJson(['--adt-ls-path', install.binPath], { env: { JAVA_TOOL_OPTIONS: '-Djavax.net.ssl.keyStorePassword=s3cr3t-Pa55' } });
  assert.equal(check(ok.report, 'jre.java').status, 'ok');
  assert.equal(check(ok.report, 'jre.java').message, `${install.javaPath} -version: openjdk version "21.0.9" 2025-10-21 LTS`);
  assert.doesNotMatch(JSON.stringify(ok.report), /s3cr3t-Pa55|Picked up/);

  writeFileSync(install.javaPath, '#!/bin/sh\necho "Error: could not find libjava.so" >&2\necho "Error: Could not find Java SE Runtime Environment." >&2\nexit 2\n');
  chmodSync(install.javaPath, 0o755);
  const failed = await doctorJson(['--adt-ls-path', install.binPath]);
  assert.equal(failed.code, 1);
  const java = check(failed.report, 'jre.java');
  assert.equal(java.status, 'fail');
  assert.equal(java.message, `${install.javaPath} -version exited with 2:\nError: could not find libjava.so\nError: Could not find Java SE Runtime Environment.`);
  assert.match(java.fix, /install the libraries adt-ls\.libraries names/);
  assert.deepEqual([failed.report.jre.java.started, failed.report.jre.java.exitCode], [false, 2]);

  writeFileSync(install.javaPath, '#!/bin/sh\nexec sleep 600\n');
  const hung = await doctorJson(['--adt-ls-path', install.binPath, '--timeout-ms', '300']);
  assert.equal(hung.code, 1);
  assert.equal(check(hung.report, 'jre.java').message, `${install.javaPath} -version gave no answer within 300 ms (killed)`);

  rmSync(install.javaPath);
  const gone = await doctorJson(['--adt-ls-path', install.binPath]);
  assert.equal(check(gone.report, 'jre.java').message, `${install.javaPath} is missing`);
});

test('the temp and data directories: writable with free space, or a failure naming the fix', async () => {
  const install = installFakeExtension({ home: join(t.dir, 'dirs-home'), editor: 'vscode', version: '1.1.2' });
  const data = join(t.dir, 'data');
  mkdirSync(data);
  const ok = await doctorJson(['--adt-ls-path', install.binPath, '--data-dir', data]);
  assert.equal(check(ok.report, 'dir.data').status, 'ok');
  assert.match(check(ok.report, 'dir.data').message, /\(--data-dir, the driver's dataDir\) is writable, \d+ MiB free of \d+ MiB$/);
  assert.equal(ok.report.directories[1].path, data);

  const missingData = await doctorJson(['--adt-ls-path', install.binPath, '--data-dir', join(t.dir, 'nope')]);
  assert.equal(missingData.code, 1);
  assert.equal(check(missingData.report, 'dir.data').status, 'fail');
  assert.match(check(missingData.report, 'dir.data').fix, /ENV HOME=\/tmp/);

  // A home below a regular file: nothing can create it (Bun makes a missing home for its
  // own cache, as it would in a container whose HOME is writable).
  writeFileSync(join(t.dir, 'a-file'), '');
  const noHome = join(t.dir, 'a-file', 'home');
  const homeless = await doctorJson(['--adt-ls-path', install.binPath], { env: { HOME: noHome, USERPROFILE: noHome } });
  assert.equal(check(homeless.report, 'dir.data').status, 'fail');
  assert.match(check(homeless.report, 'dir.data').message, /a-file.home \(home directory: adt-ls's Eclipse configuration and JVM preferences\) does not exist/);

  const tmp = process.platform === 'win32' ? { TEMP: join(t.dir, 'no-tmp'), TMP: join(t.dir, 'no-tmp') } : { TMPDIR: join(t.dir, 'no-tmp') };
  const noTmp = await doctorJson(['--adt-ls-path', install.binPath], { env: tmp });
  assert.equal(noTmp.code, 1);
  const temp = check(noTmp.report, 'dir.temp');
  assert.equal(temp.status, 'fail');
  assert.match(temp.message, /no-tmp \(temp dir: adt-ls-native's work dir, adt-ls's -data dir, the LSP socket\) does not exist/);
  assert.match(temp.fix, /set TMPDIR \(TEMP on Windows\)/);
});
