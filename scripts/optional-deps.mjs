// Release tooling (not shipped): writes the root package.json's `optionalDependencies`, one
// exact-version entry per configured napi target (`adt-ls-native-<platform>: <version>`), as
// `napi prepublish` would. Ours because prepublish also insists on every target's binary being
// present and on a git/GitHub release, which a local or partial package cannot satisfy.
// Run by `npm run package`; `scripts/version.mjs` (npm version) calls it too.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readNapiConfig } from '@napi-rs/cli';

/** Write the exact optionalDependencies into `<rootDir>/package.json`; returns them. */
export async function writeOptionalDependencies(rootDir) {
  const path = join(rootDir, 'package.json');
  const config = await readNapiConfig(path);
  const pkg = JSON.parse(readFileSync(path, 'utf8'));
  pkg.optionalDependencies = Object.fromEntries(
    config.targets.map((t) => [`${config.packageName}-${t.platformArchABI}`, pkg.version]),
  );
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
  return pkg.optionalDependencies;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await writeOptionalDependencies(new URL('..', import.meta.url).pathname);
}
