// Release tooling (not shipped): refuses a release whose tarballs disagree. Checks the dist/
// tarballs (what `npm publish` uploads, read without unpacking) against the napi targets of
// package.json: one root, one package per platform, the simulator; every version the same;
// the root's `optionalDependencies` exactly `<root>-<platform>: <version>` for every target;
// each platform tarball holding its binary; the git tag `v<version>`; npm >= 11.5.1 (trusted
// publishing); a CHANGELOG.md section for the version. Prints the npm dist-tag: `next` for a
// prerelease (x.y.z-rc.n), `latest` otherwise. docs/packaging.md#the-release-workflow.
//
// Usage: node scripts/release-check.mjs [--dist dist] [--git-tag v1.2.3] [--npm 11.6.0]
//        [--changelog CHANGELOG.md] [--partial]
// --partial accepts missing platform tarballs (a local `npm run package` builds only this
// machine's); a release never passes it. Exit 0 with the dist-tag on stdout, 1 with the
// problems on stderr, 2 on a usage error.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { readTarball } from './lib/tarball.mjs';

export const MIN_NPM = '11.5.1';
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** `a` >= `b` for plain `x.y.z` versions (a prerelease suffix of `a` is ignored). */
export function versionAtLeast(a, b) {
  const [x, y] = [a, b].map((v) => v.split('-')[0].split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return true;
}

/** The dist-tag a version is published under. */
export const distTagFor = (version) => (SEMVER.exec(version)?.[4] ? 'next' : 'latest');

/**
 * Check a release. `tarballs`: `[{ file, manifest, entries }]`; `napi`: `{ packageName,
 * binaryName, platforms }`; `simulatorName`. Returns `{ version, distTag, order, problems }`
 * where `order` lists the files in publish order (platforms, simulator, root last).
 */
export function checkRelease({ tarballs, napi, simulatorName, gitTag, npmVersion, changelog, partial = false }) {
  const problems = [];
  const byName = new Map();
  for (const t of tarballs) {
    if (byName.has(t.manifest.name)) problems.push(`two tarballs for ${t.manifest.name}: ${byName.get(t.manifest.name).file}, ${t.file}`);
    byName.set(t.manifest.name, t);
  }
  const root = byName.get(napi.packageName);
  if (!root) return { problems: [`no tarball of the root package ${napi.packageName}`], order: [] };
  const version = root.manifest.version;
  if (!SEMVER.test(version)) problems.push(`the root version ${version} is not x.y.z or x.y.z-<prerelease>`);

  const platformNames = napi.platforms.map((p) => `${napi.packageName}-${p}`);
  const known = new Set([napi.packageName, simulatorName, ...platformNames]);
  for (const name of byName.keys()) if (!known.has(name)) problems.push(`${name} is not a package of this release`);
  if (!byName.has(simulatorName)) problems.push(`no tarball of ${simulatorName}`);
  napi.platforms.forEach((platform, i) => {
    const t = byName.get(platformNames[i]);
    if (!t) {
      if (!partial) problems.push(`no tarball of ${platformNames[i]}`);
      return;
    }
    const binary = `package/${napi.binaryName}.${platform}.node`;
    if (!t.entries.includes(binary)) problems.push(`${t.file} does not hold ${binary.slice('package/'.length)}`);
  });
  for (const t of byName.values()) {
    if (t.manifest.version !== version) problems.push(`${t.manifest.name} is ${t.manifest.version}, the root is ${version}`);
  }
  const expected = Object.fromEntries(platformNames.map((n) => [n, version]));
  const actual = root.manifest.optionalDependencies ?? {};
  if (JSON.stringify(Object.entries(actual).sort()) !== JSON.stringify(Object.entries(expected).sort())) {
    problems.push(`the root's optionalDependencies ${JSON.stringify(actual)} are not exactly ${JSON.stringify(expected)}`);
  }
  if (gitTag !== undefined && gitTag !== `v${version}`) problems.push(`the git tag ${gitTag} is not v${version}`);
  if (npmVersion !== undefined && !versionAtLeast(npmVersion, MIN_NPM)) {
    problems.push(`npm ${npmVersion} cannot publish with trusted publishing (OIDC): it needs npm >= ${MIN_NPM} (Node 24)`);
  }
  if (changelog !== undefined && !changelog.split('\n').some((l) => l.startsWith(`## [${version}]`))) {
    problems.push(`CHANGELOG.md has no "## [${version}]" section (npm version ${version} opens it)`);
  }
  const order = [...platformNames, simulatorName, napi.packageName].filter((n) => byName.has(n)).map((n) => byName.get(n).file);
  return { version, distTag: distTagFor(version), order, problems };
}

/** Read the napi config of the package.json in `root` (the fields the check needs). */
export async function readRelease(rootDir) {
  const { readNapiConfig } = await import('@napi-rs/cli');
  const config = await readNapiConfig(join(rootDir, 'package.json'));
  const simulator = JSON.parse(readFileSync(join(rootDir, 'simulator', 'package.json'), 'utf8'));
  return {
    napi: { packageName: config.packageName, binaryName: config.binaryName, platforms: config.targets.map((t) => t.platformArchABI) },
    simulatorName: simulator.name,
  };
}

/** The tarballs in `dist`. */
export function readDist(dist) {
  return readdirSync(dist)
    .filter((f) => f.endsWith('.tgz'))
    .sort()
    .map((f) => ({ file: join(dist, f), ...readTarball(join(dist, f)) }));
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { dist: { type: 'string', default: 'dist' }, 'git-tag': { type: 'string' }, npm: { type: 'string' }, changelog: { type: 'string' }, partial: { type: 'boolean', default: false } },
    }));
  } catch (e) {
    console.error(`release-check: ${e.message}`);
    process.exit(2);
  }
  const rootDir = resolve(new URL('..', import.meta.url).pathname);
  const { napi, simulatorName } = await readRelease(rootDir);
  const result = checkRelease({
    tarballs: readDist(resolve(values.dist)),
    napi,
    simulatorName,
    gitTag: values['git-tag'],
    npmVersion: values.npm,
    changelog: values.changelog === undefined ? undefined : readFileSync(values.changelog, 'utf8'),
    partial: values.partial,
  });
  if (result.problems.length > 0) {
    console.error(`release-check: refusing to publish:\n${result.problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.error(`release-check: ${result.order.length} tarballs agree on ${result.version} (dist-tag ${result.distTag})`);
  console.log(result.distTag);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
