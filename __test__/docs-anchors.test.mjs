// Every `docs/<file>.md#<anchor>` a code comment or doc cites must exist: the file under
// docs/, and the anchor as a heading (GitHub's slug rules) or an explicit `<a id>`. Keeps the
// design links in the code from drifting when docs are edited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['src', 'simulator/lib', 'simulator/README.md', '__test__', 'scripts', 'bench', 'examples', 'types', 'README.md', 'docs'];
const SKIP_DIRS = new Set(['node_modules', 'target', 'api', 'fixtures']);

function* files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return;
  if (statSync(full).isFile()) {
    yield full;
    return;
  }
  for (const entry of readdirSync(full)) {
    if (SKIP_DIRS.has(entry)) continue;
    yield* files(join(path, entry));
  }
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown) {
  const anchors = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1]));
    for (const m of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(m[1]);
  }
  return anchors;
}

function citations() {
  const found = [];
  const pattern = /docs\/([\w-]+\.md)#([\w-]+)((?:, #[\w-]+)*)/g;
  for (const file of new Set([...SCANNED.flatMap((p) => [...files(p)])])) {
    if (!/\.(rs|mjs|js|ts|md)$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(pattern)) {
      const where = relative(root, file);
      found.push({ where, doc: m[1], anchor: m[2] });
      // `docs/decisions.md#d5-1, #d5-3`: the short forms that follow name the same file.
      for (const extra of m[3].matchAll(/#([\w-]+)/g)) found.push({ where, doc: m[1], anchor: extra[1] });
    }
  }
  return found;
}

test('the comments cite the design docs, and every cited anchor exists', () => {
  const cited = citations();
  assert.ok(cited.length >= 100, `expected the code to cite docs/*.md anchors, found ${cited.length}`);
  const cache = new Map();
  const missing = [];
  for (const { where, doc, anchor } of cited) {
    if (!cache.has(doc)) {
      const path = join(root, 'docs', doc);
      cache.set(doc, existsSync(path) ? anchorsOf(readFileSync(path, 'utf8')) : null);
    }
    const anchors = cache.get(doc);
    if (!anchors || !anchors.has(anchor)) missing.push(`${where}: docs/${doc}#${anchor}`);
  }
  assert.deepEqual(missing, []);
});

test('markdown links between the docs point at existing anchors', () => {
  const missing = [];
  for (const file of files('docs')) {
    if (!file.endsWith('.md')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\]\(([\w-]*\.md)?#([\w-]+)\)/g)) {
      const target = m[1] ? join(root, 'docs', m[1]) : file;
      if (!existsSync(target) || !anchorsOf(readFileSync(target, 'utf8')).has(m[2])) {
        missing.push(`${relative(root, file)}: ${m[1] ?? ''}#${m[2]}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('no comment cites the design files that live outside the repository', () => {
  const stale = [];
  const pattern = /(?<![\w/])(?:wire|api|mcp-client|simulator|upstream-tests)\.md §|(?<![\w/])api\.md\b|notes\/napi\.md/;
  for (const path of ['src', 'simulator/lib', '__test__', 'scripts', 'bench']) {
    for (const file of files(path)) {
      if (!/\.(rs|mjs|js|ts)$/.test(file) || file.endsWith('docs-anchors.test.mjs')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (pattern.test(line)) stale.push(`${relative(root, file)}:${i + 1}`);
        });
    }
  }
  assert.deepEqual(stale, []);
});
