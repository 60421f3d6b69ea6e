// Release tooling (not shipped): the `version` lifecycle step of `npm version <x>`. npm has
// already written <x> into package.json and package-lock.json; this brings every other
// published package to it: each npm/<platform>/package.json, simulator/package.json, the
// root's exact optionalDependencies (also in package-lock.json, with the simulator's entry),
// and opens the `## [<x>] - <today>` section of CHANGELOG.md from its Unreleased entries.
// package.json's `version` script then rebuilds index.js (it embeds the version) and stages
// everything for npm's version commit.
//
// Usage: node scripts/version.mjs [--root <dir>] [--date YYYY-MM-DD]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openRelease } from './lib/changelog.mjs';
import { writeOptionalDependencies } from './optional-deps.mjs';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: new URL('..', import.meta.url).pathname },
    date: { type: 'string', default: new Date().toISOString().slice(0, 10) },
  },
});
const root = resolve(values.root);
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

try {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date)) throw new Error(`--date ${values.date} is not YYYY-MM-DD`);
  const rootPkg = readJson(join(root, 'package.json'));
  const { version } = rootPkg;
  const changelogPath = join(root, 'CHANGELOG.md');
  const web = rootPkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  // The changelog first: refusing there leaves every package.json as it was.
  const changelog = openRelease(readFileSync(changelogPath, 'utf8'), version, values.date, web);

  const dirs = [...readdirSync(join(root, 'npm')).sort().map((d) => join('npm', d)), 'simulator'];
  for (const dir of dirs) {
    const path = join(root, dir, 'package.json');
    writeJson(path, { ...readJson(path), version });
  }
  const optionalDependencies = await writeOptionalDependencies(root);
  const lockPath = join(root, 'package-lock.json');
  if (existsSync(lockPath)) {
    const lock = readJson(lockPath);
    // npm keeps the lockfile's dependency maps sorted by name.
    const sorted = Object.fromEntries(Object.entries(optionalDependencies).sort(([a], [b]) => a.localeCompare(b)));
    lock.packages[''] = { ...lock.packages[''], version, optionalDependencies: sorted };
    if (lock.packages.simulator) lock.packages.simulator.version = version;
    writeJson(lockPath, lock);
  }
  writeFileSync(changelogPath, changelog);
  console.log(`version: ${dirs.length + 1} packages at ${version}; CHANGELOG.md section [${version}] - ${values.date} opened`);
} catch (e) {
  console.error(`version: ${e.message}`);
  process.exit(1);
}
