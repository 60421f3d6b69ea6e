// Release tooling (not shipped): writes the root package.json's `optionalDependencies`, one
// exact-version entry per configured napi target (`adt-ls-native-<platform>: <version>`), as
// `napi prepublish` would. Ours because prepublish also insists on every target's binary being
// present and on a git/GitHub release, which a local or partial package cannot satisfy.
// Run by `npm version` (after `napi version` bumps npm/*) and by `npm run package`.
import { readFileSync, writeFileSync } from 'node:fs';
import { readNapiConfig } from '@napi-rs/cli';

const path = new URL('../package.json', import.meta.url).pathname;
const config = await readNapiConfig(path);
const pkg = JSON.parse(readFileSync(path, 'utf8'));
pkg.optionalDependencies = Object.fromEntries(
  config.targets.map((t) => [`${config.packageName}-${t.platformArchABI}`, pkg.version]),
);
writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
