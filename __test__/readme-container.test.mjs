// README's "Run in a container" Dockerfile and the doctor's package table agree
// (docs/doctor.md#container-readiness): every library package the Dockerfile installs is the
// Debian package the doctor names for one of adt-ls's libraries, and it covers the libraries
// the doctor looks for at run time and the X11/font/sound stack of the bundled JRE.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const table = readFileSync(join(ROOT, 'src', 'doctor', 'libraries', 'packages.tsv'), 'utf8');
const verdict = readFileSync(join(ROOT, 'src', 'doctor', 'libraries', 'verdict.rs'), 'utf8');
const debianOf = new Map([...table.matchAll(/^([^#\t\n]+)\t([^\t\n]+)\t([^\t\n]+)$/gm)].map((m) => [m[1], m[2]]));

function dockerfile() {
  const section = readme.slice(readme.indexOf('## Run in a container'));
  const block = /```Dockerfile\n([^]*?)```/.exec(section);
  assert.ok(block, 'no Dockerfile block under "## Run in a container"');
  return block[1];
}

test('the Dockerfile installs Debian packages of the doctor table, on a slim Debian 12 Node image', () => {
  const text = dockerfile();
  assert.match(text, /^FROM node:\d+-bookworm-slim$/m);
  const install = /apt-get install -y --no-install-recommends \\\n([^]*?)&& rm -rf/.exec(text);
  assert.ok(install, 'no apt-get install line');
  const packages = install[1].replace(/\\\n/g, ' ').split(/\s+/).filter(Boolean);
  const known = new Set(debianOf.values());
  assert.ok(debianOf.size > 40, `only ${debianOf.size} table rows parsed`);
  for (const p of packages.filter((p) => p !== 'ca-certificates')) assert.ok(known.has(p), `${p} is not a Debian package of src/doctor/libraries/packages.tsv`);
  const runtime = [...verdict.matchAll(/RuntimeLoaded \{\s*name: "([^"]+)"/g)].map((m) => m[1]);
  assert.ok(runtime.length >= 2, 'no run-time loads parsed');
  for (const lib of [...runtime, 'libX11.so.6', 'libXtst.so.6', 'libXi.so.6', 'libXrender.so.1', 'libXext.so.6', 'libfreetype.so.6', 'libasound.so.2']) {
    assert.ok(packages.includes(debianOf.get(lib)), `${lib} (${debianOf.get(lib)}) is not installed by the Dockerfile`);
  }
  assert.match(text, /RUN npm ci --omit=dev\n/);
  assert.doesNotMatch(text, /^RUN .*(--omit=optional|--no-optional)/m);
  assert.match(text, /COPY vendor\/adt-ls \.\/vendor\/adt-ls/);
  assert.match(text, /RUN npx adt-ls-native doctor\n/);
});
