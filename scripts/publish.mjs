// Release tooling (not shipped): publishes the dist/ tarballs `npm run package` wrote, or
// rehearses it. First `scripts/release-check.mjs` (versions, exact optionalDependencies,
// binaries, git tag, npm >= 11.5.1, CHANGELOG section); then `npm publish --dry-run` of every
// tarball, failing on any `npm warn`; then, unless --dry-run, the real `npm publish` of each
// (platform packages, the simulator, the root last) under the dist-tag the check chose
// (`next` for a prerelease, `latest` otherwise). A name@version already on the registry is
// skipped (in the dry run too), so a rerun after a partial publish finishes it. Authentication is npm's trusted
// publishing (OIDC from the workflow); no token is read here.
//
// Usage: node scripts/publish.mjs [--dry-run] [--partial] [--git-tag v1.2.3] [--dist dist]
// A dry run without a registry login makes npm warn that publishing would need one; the
// rehearsal therefore runs with a temporary npmrc holding a placeholder token for the
// registry, which is never valid (npm sends it only with its read of the package's versions).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkRelease, readDist, readRelease } from './release-check.mjs';

const STEP_MS = 10 * 60_000;
const root = resolve(new URL('..', import.meta.url).pathname);
const { values: opts } = parseArgs({
  options: {
    'dry-run': { type: 'boolean', default: false },
    partial: { type: 'boolean', default: false },
    'git-tag': { type: 'string' },
    dist: { type: 'string', default: join(root, 'dist') },
  },
});
const dryRun = opts['dry-run'];
if (opts.partial && !dryRun) {
  console.error('publish: --partial is for rehearsals only (with --dry-run): a release publishes every platform');
  process.exit(2);
}

function npm(args, env = process.env) {
  const quiet = { ...env, npm_config_update_notifier: 'false' };
  const run = spawnSync('npm', args, { cwd: root, env: quiet, encoding: 'utf8', timeout: STEP_MS });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const npmVersion = npm(['--version']).output.trim();
const { napi, simulatorName } = await readRelease(root);
const tarballs = readDist(resolve(opts.dist));
const result = checkRelease({
  tarballs,
  napi,
  simulatorName,
  gitTag: opts['git-tag'],
  npmVersion,
  changelog: dryRun ? undefined : readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
  partial: opts.partial,
});
if (result.problems.length > 0) {
  console.error(`publish: refusing to publish:\n${result.problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`publish: ${result.order.length} tarballs at ${result.version}, dist-tag ${result.distTag}, npm ${npmVersion}`);

// Versions already on the registry (a rerun after a partial publish) are left as they are.
const manifestOf = (file) => tarballs.find((t) => t.file === file).manifest;
const onRegistry = (file) => {
  const { name, version } = manifestOf(file);
  const seen = npm(['view', `${name}@${version}`, 'version']);
  return seen.status === 0 && seen.output.trim() === version;
};
const pending = result.order.filter((file) => {
  if (!onRegistry(file)) return true;
  console.log(`publish: ${manifestOf(file).name}@${result.version} is already on the registry, skipped`);
  return false;
});

// 1. The rehearsal: npm's own checks of every tarball, no warning allowed.
const scratch = mkdtempSync(join(tmpdir(), 'adt-ls-native-publish-'));
const registry = npm(['config', 'get', 'registry']).output.trim().replace(/^https?:/, '').replace(/\/?$/, '/');
writeFileSync(join(scratch, 'npmrc'), `${registry}:_authToken=dry-run-placeholder-not-a-credential\n`, { mode: 0o600 });
const rehearsalEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_userconfig$/i.test(k)));
rehearsalEnv.npm_config_userconfig = join(scratch, 'npmrc');
let failed = false;
try {
  for (const file of pending) {
    const run = npm(['publish', file, '--dry-run', '--tag', result.distTag], rehearsalEnv);
    const warnings = run.output.split('\n').filter((l) => /^npm warn/i.test(l));
    console.log(`\n== npm publish --dry-run --tag ${result.distTag} ${basename(file)} (exit ${run.status}, ${warnings.length} warnings)`);
    console.log(run.output.trimEnd());
    if (run.status !== 0 || warnings.length > 0) failed = true;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failed) {
  console.error('\npublish: the dry run failed or warned (output above)');
  process.exit(1);
}
if (dryRun) {
  console.log(`\npublish: dry run of ${pending.length} tarballs clean`);
  process.exit(0);
}

// 2. The publish, in order.
for (const file of pending) {
  const run = npm(['publish', file, '--tag', result.distTag]);
  console.log(run.output.trimEnd());
  if (run.status !== 0) {
    console.error(`publish: npm publish ${basename(file)} failed (exit ${run.status}); rerun the job to publish the rest`);
    process.exit(1);
  }
}
console.log(`publish: ${result.version} published under ${result.distTag}`);
