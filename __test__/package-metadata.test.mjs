// The registry metadata of every published package (docs/packaging.md#metadata): the root, one
// npm/<platform> package per napi target and the simulator. npm refuses a provenance publish
// whose `repository.url` does not name the source repository, so all of them carry the same
// canonical repository (the root's, recorded in docs/packaging.md), with `directory` for the
// packages in subfolders, plus homepage, bugs, license, keywords and
// `publishConfig: { access: "public", provenance: true }`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const read = (dir) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
const root = read('.');
const platformDirs = readdirSync(join(ROOT, 'npm')).sort().map((d) => `npm/${d}`);
const packages = [{ dir: null, pkg: root }, ...platformDirs.map((dir) => ({ dir, pkg: read(dir) })), { dir: 'simulator', pkg: read('simulator') }];

const REPO_URL = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\.git$/;

test('the canonical repository: a GitHub URL in the form npm writes, recorded in docs/packaging.md', () => {
  assert.equal(root.repository?.type, 'git');
  assert.match(root.repository.url, REPO_URL);
  const web = root.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const doc = readFileSync(join(ROOT, 'docs', 'packaging.md'), 'utf8');
  assert.ok(doc.includes(web), `docs/packaging.md does not name ${web}`);
});

test('one npm/<platform> package per napi target, named <root>-<platform>', () => {
  assert.equal(platformDirs.length, root.napi.targets.length, `${platformDirs.join(', ')} vs ${root.napi.targets.join(', ')}`);
  for (const dir of platformDirs) assert.equal(read(dir).name, `${root.name}-${dir.slice('npm/'.length)}`);
});

for (const { dir, pkg } of packages) {
  test(`${pkg.name}: repository, homepage, bugs, license, keywords, publishConfig`, () => {
    const web = root.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    assert.deepEqual(pkg.repository, { type: 'git', url: root.repository.url, ...(dir ? { directory: dir } : {}) });
    if (dir) assert.ok(existsSync(join(ROOT, dir, 'package.json')), `repository.directory ${dir} does not hold the package`);
    const homepages = [`${web}#readme`, ...(dir ? [`${web}/tree/main/${dir}#readme`] : [])];
    assert.ok(homepages.includes(pkg.homepage), `homepage ${pkg.homepage} is not one of ${homepages.join(', ')}`);
    assert.deepEqual(pkg.bugs, { url: `${web}/issues` });
    assert.equal(pkg.license, 'Apache-2.0');
    assert.ok(existsSync(join(ROOT, 'LICENSE')), 'LICENSE (copied into every tarball) is missing');
    assert.ok(Array.isArray(pkg.keywords) && pkg.keywords.length >= 3, `keywords: ${JSON.stringify(pkg.keywords)}`);
    for (const k of pkg.keywords) assert.match(k, /^[a-z0-9][a-z0-9.-]*$/, `keyword ${k}`);
    assert.ok(pkg.keywords.includes('adt-ls'));
    assert.deepEqual(pkg.publishConfig, { access: 'public', provenance: true });
    assert.ok(typeof pkg.description === 'string' && pkg.description.length > 20, 'description');
    assert.equal(pkg.private, undefined, 'a published package is not private');
    assert.equal(pkg.version, root.version, 'every package carries the root version');
  });
}
