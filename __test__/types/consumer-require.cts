// A CommonJS consumer of 0.5.0-era code (`import = require`, the namespace object passed
// around); only under module nodenext (bundler resolution has no CommonJS output). Compiled
// with tsc, never run.
import adtLs = require('adt-ls-native');

async function run(lib: typeof adtLs): Promise<string[]> {
  const adt: adtLs.AdtLsClient = await lib.createAdtLs({ auth: lib.basic('U', 'P'), connection: { systemUrl: 'https://h:1' } });
  const found: adtLs.QuickSearchResult = await adt.repository.search('ZCL_*');
  await adt.dispose();
  return found.references.map((r) => r.name);
}
void run(adtLs);
