// The skip policy of `npm test`. A test that cannot run here (an external tool or machine
// feature is missing) is SKIPPED with its reason, never passed. Each runner leaves a report
// in target/test-reports/: node --test (skip-reporter.mjs, js.jsonl and sim.jsonl), Bun
// (JUnit, bun.xml: Bun keeps no reason, the test name identifies it) and cargo test
// (rust-skips.txt, written by src/kernel/test_skip.rs).
//
//   node __test__/support/skips.mjs reset <rust|js|sim|bun>   before a runner: fresh report
//   node __test__/support/skips.mjs check                     after all: list the skips
//
// `check` prints every skip. With CI=true (.ci/run) it fails when a report is missing or a
// skip matches no line of .ci/allowed-skips (a line matches when it is a substring of
// "<runner>: <file>: <test name>: <reason>").

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORTS = join(ROOT, 'target', 'test-reports');
const ALLOWED = join(ROOT, '.ci', 'allowed-skips');
const FILES = { rust: 'rust-skips.txt', js: 'js.jsonl', sim: 'sim.jsonl', bun: 'bun.xml' };

function unescapeXml(text) {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

function attr(tag, name) {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]) : '';
}

/** Skips of one runner's report: [{runner, file, name, reason}]. */
export function parseReport(runner, text) {
  if (runner === 'rust') {
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, reason = ''] = line.split('\t');
        return { runner, file: 'cargo test', name, reason };
      });
  }
  if (runner === 'bun') {
    const skips = [];
    const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
    for (let m; (m = re.exec(text)); ) {
      if (!/<skipped\b/.test(m[3] ?? '') && !/<todo\b/.test(m[3] ?? '')) continue;
      const tag = m[1];
      const suite = attr(tag, 'classname');
      const name = suite ? `${suite} > ${attr(tag, 'name')}` : attr(tag, 'name');
      // Bun names the file relative to where it ran (the repository root under npm test).
      skips.push({ runner, file: attr(tag, 'file'), name, reason: '(Bun reports no reason)' });
    }
    return skips;
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map(({ file, name, reason }) => ({ runner, file: file ? relative(ROOT, file) : '?', name, reason }));
}

export function describeSkip(s) {
  return `${s.runner}: ${s.file}: ${s.name}: ${s.reason}`;
}

/** Non-comment, non-blank lines of an allow-list text. */
export function parseAllowed(text) {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** The skips no allow-list line matches. */
export function unexpected(skips, allowed) {
  return skips.filter((s) => !allowed.some((a) => describeSkip(s).includes(a)));
}

function reset(runner) {
  if (!FILES[runner]) throw new Error(`unknown runner ${runner}; one of ${Object.keys(FILES).join(', ')}`);
  mkdirSync(REPORTS, { recursive: true });
  rmSync(join(REPORTS, FILES[runner]), { force: true });
  // cargo test appends only when something is skipped: an empty report means "none".
  if (runner === 'rust') writeFileSync(join(REPORTS, FILES.rust), '');
}

function check() {
  const ci = process.env.CI === 'true';
  const skips = [];
  const missing = [];
  for (const [runner, file] of Object.entries(FILES)) {
    const path = join(REPORTS, file);
    if (!existsSync(path)) {
      missing.push(relative(ROOT, path));
      continue;
    }
    skips.push(...parseReport(runner, readFileSync(path, 'utf8')));
  }
  const allowed = existsSync(ALLOWED) ? parseAllowed(readFileSync(ALLOWED, 'utf8')) : [];
  const bad = unexpected(skips, allowed);
  console.log(`\nSkipped tests: ${skips.length}${skips.length ? '' : ' (none)'}`);
  for (const s of skips) console.log(`  ${bad.includes(s) ? 'SKIPPED' : 'allowed'}  ${describeSkip(s)}`);
  for (const m of missing) console.log(`  no report: ${m} (that runner did not run through npm test)`);
  if (!ci) return 0;
  if (missing.length || bad.length) {
    console.error(
      `\nCI=true: ${bad.length} skip(s) not on .ci/allowed-skips and ${missing.length} missing report(s). ` +
        'CI installs every tool (.ci/install-system-packages), so a skip there is a failure.',
    );
    return 1;
  }
  console.log('CI=true: every skip is on .ci/allowed-skips');
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cmd, arg] = process.argv.slice(2);
  if (cmd === 'reset') reset(arg);
  else if (cmd === 'check') process.exitCode = check();
  else {
    console.error('usage: skips.mjs reset <rust|js|sim|bun> | check');
    process.exitCode = 2;
  }
}
