// `npm run package` (dev tooling, not shipped): writes to dist/ exactly the tarballs a release
// publishes: the root package, every platform package that has a binary, and the simulator.
// The binaries come from one of two places:
//   - this machine's release build: on linux-x64 the glibc 2.28 build of `.ci/glibc-check`
//     (cargo-zigbuild, GLIBC_ floor asserted, loaded by node), the file the release ships;
//     elsewhere `napi build --release` for this platform;
//   - `--prebuilt <dir>`: the binaries the release workflow's build jobs made
//     (`adt-ls-native.<platform>.node` anywhere below <dir>); every configured target must be
//     there.
// Each binary goes into its npm/<platform> package (what `napi artifacts` does; it insists on
// all four targets), with LICENSE next to it. docs/packaging.md describes the layout.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readNapiConfig } from '@napi-rs/cli';
import { writeOptionalDependencies } from './optional-deps.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const artifacts = join(root, 'artifacts', 'package');
const { values } = parseArgs({ options: { prebuilt: { type: 'string' } } });
const config = await readNapiConfig(join(root, 'package.json'));
const fileOf = (platform) => `${config.binaryName}.${platform}.node`;
const run = (cmd, args, cwd = root) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

/** Every `<binary>.<platform>.node` below `dir`, by platform. */
function findBinaries(dir) {
  const found = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const match = entry.isFile() && /^(.+)\.([^.]+)\.node$/.exec(entry.name);
    if (match && match[1] === config.binaryName) found.set(match[2], join(entry.parentPath ?? entry.path, entry.name));
  }
  return found;
}

/** This machine's release binary, built into artifacts/package/. */
function buildHere() {
  rmSync(artifacts, { recursive: true, force: true });
  if (process.platform === 'linux' && process.arch === 'x64') {
    execFileSync(join(root, '.ci', 'glibc-check'), [artifacts], { cwd: root, stdio: 'inherit' });
  } else {
    execFileSync('npx', ['napi', 'build', '--platform', '--release', '--no-const-enum', '--output-dir', artifacts, '--no-js', '--dts', 'index.d.ts'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
  }
  const built = findBinaries(artifacts);
  if (built.size !== 1) throw new Error(`expected one release binary in ${artifacts}, found: ${[...built.values()].join(', ') || 'none'}`);
  return built;
}

// 1. The binaries into npm/<platform>; no binary from an earlier run stays behind.
const platforms = config.targets.map((t) => t.platformArchABI);
const binaries = values.prebuilt ? findBinaries(resolve(values.prebuilt)) : buildHere();
const missing = platforms.filter((p) => !binaries.has(p));
if (values.prebuilt && missing.length > 0) throw new Error(`--prebuilt ${values.prebuilt} lacks ${missing.map(fileOf).join(', ')}`);
for (const platform of binaries.keys()) {
  if (!platforms.includes(platform)) throw new Error(`${fileOf(platform)} is not a configured target (napi.targets)`);
}
for (const platform of platforms) {
  const dir = join(root, 'npm', platform);
  if (!existsSync(dir)) throw new Error(`npm/${platform} is missing (napi create-npm-dirs, then restore the metadata: docs/packaging.md)`);
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.node'))) rmSync(join(dir, f));
  if (binaries.has(platform)) {
    copyFileSync(binaries.get(platform), join(dir, fileOf(platform)));
    copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
  }
}

// 2. Exact-version optionalDependencies, as `napi prepublish` would write them.
await writeOptionalDependencies(root);

// 3. Tarballs: root, platform packages holding a binary, simulator.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const dirs = [root, ...platforms.filter((p) => binaries.has(p)).map((p) => join(root, 'npm', p)), join(root, 'simulator')];
console.log('\ntarball                                   packed     unpacked  files');
for (const dir of dirs) {
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dist], dir));
  const kB = (n) => `${(n / 1024).toFixed(1)} kB`.padStart(10);
  console.log(`${info.filename.padEnd(40)} ${kB(info.size)} ${kB(info.unpackedSize)}  ${info.entryCount}`);
}
console.log(`\nwritten to ${dist}`);
