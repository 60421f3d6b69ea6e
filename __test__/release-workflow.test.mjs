// The release workflow's publish job (docs/packaging.md#the-release-workflow) as a document:
// actionlint (.ci/actionlint) checks that it is valid; this checks what it must do: trusted
// publishing (id-token: write, Node 24, no token anywhere), the tarballs `npm run package`
// makes from the build jobs' binaries, the install test on them, and scripts/publish.mjs
// with the tag, which picks the dist-tag. The workflow itself has never run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const yaml = createRequire(import.meta.url)('yaml');
const text = readFileSync(join(ROOT, '.github', 'workflows', 'CI.yml'), 'utf8');
const workflow = yaml.parse(text);
const publish = workflow.jobs.publish;
const runs = publish.steps.map((s) => s.run ?? '').join('\n');

test('no long-lived npm token anywhere in the workflow', () => {
  assert.doesNotMatch(text, /NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
});

test('the publish job: OIDC permission, Node 24, npm >= 11.5.1 asserted, only on a version tag or by hand', () => {
  assert.deepEqual(publish.permissions, { contents: 'read', 'id-token': 'write' });
  const node = publish.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  assert.equal(String(node.with['node-version']), '24');
  assert.match(runs, /versionAtLeast\(v, MIN_NPM\)/);
  assert.equal(publish.if, "startsWith(github.ref, 'refs/tags/v') || github.event_name == 'workflow_dispatch'");
  assert.deepEqual(publish.needs, ['lint', 'test']);
});

test('the publish job ships what was packed and tested: npm run package --prebuilt, the install test, scripts/publish.mjs', () => {
  const order = ['npm run package -- --prebuilt artifacts', 'npm run test:package', 'node scripts/publish.mjs --git-tag "$GITHUB_REF_NAME"'];
  const at = order.map((cmd) => runs.indexOf(cmd));
  assert.ok(at.every((i) => i >= 0), `missing: ${order.filter((_, i) => at[i] < 0)}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, 'out of order');
  assert.doesNotMatch(runs, /npm publish|--tag latest|napi prepublish|create-npm-dirs/, 'publishing is scripts/publish.mjs alone');
  const download = publish.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
  assert.equal(download.with.pattern, 'bindings-*');
});

test('the test matrix covers Node 20, 22 and 24', () => {
  assert.deepEqual(workflow.jobs.test.strategy.matrix.node.map(String), ['20', '22', '24']);
});
