// `npm run package` (dev tooling, not shipped): builds the release binary for this machine,
// puts it into its npm/<platform> package and writes installable tarballs to dist/: the root
// package, every platform package that has a binary, and the simulator. docs/packaging.md
// describes the layout. Copying the binary by hand does what `napi artifacts` does for one
// target (artifacts insists on all four, see docs/packaging.md).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const artifacts = join(root, 'artifacts', 'package');
const run = (cmd, args, cwd = root) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

// 1. The release binary, built aside so the development binary and index.js stay as they are.
rmSync(artifacts, { recursive: true, force: true });
execFileSync(
  'npx',
  ['napi', 'build', '--platform', '--release', '--no-const-enum', '--output-dir', artifacts, '--no-js', '--dts', 'index.d.ts'],
  { cwd: root, stdio: 'inherit' },
);
const built = readdirSync(artifacts).filter((f) => /^adt-ls-native\..+\.node$/.test(f));
if (built.length !== 1) throw new Error(`expected one release binary in ${artifacts}, found: ${built.join(', ') || 'none'}`);
const platform = built[0].slice('adt-ls-native.'.length, -'.node'.length);
const platformDir = join(root, 'npm', platform);
if (!existsSync(platformDir)) throw new Error(`this machine builds ${platform}, which is not a configured target (npm/${platform} missing)`);
copyFileSync(join(artifacts, built[0]), join(platformDir, built[0]));

// 2. Exact-version optionalDependencies, as `napi prepublish` would write them.
run('node', [join(root, 'scripts', 'optional-deps.mjs')]);

// 3. Tarballs: root, platform packages holding a binary, simulator.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const dirs = [root];
for (const name of readdirSync(join(root, 'npm')).sort()) {
  const dir = join(root, 'npm', name);
  if (readdirSync(dir).some((f) => f.endsWith('.node'))) {
    copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
    dirs.push(dir);
  }
}
dirs.push(join(root, 'simulator'));

console.log('\ntarball                                   packed     unpacked  files');
for (const dir of dirs) {
  const [info] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dist], dir));
  const kB = (n) => `${(n / 1024).toFixed(1)} kB`.padStart(10);
  console.log(`${info.filename.padEnd(40)} ${kB(info.size)} ${kB(info.unpackedSize)}  ${info.entryCount}`);
}
console.log(`\nwritten to ${dist}`);
