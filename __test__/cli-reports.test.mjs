// The command line's reports, read by the tools CI systems read them with: SARIF 2.1.0
// through @microsoft/sarif-multitool validate, JUnit through Python's junitparser,
// Cobertura through pycobertura, LCOV through `lcov --summary`; checkstyle (for which no
// consumer is packaged in the registries this project uses) through a strict XML parser.
// Each test also checks the mapping: file path and line from the ADT URI and position, rule
// or test id, levels, suites per class and cases per method, rates per object. A missing
// tool is a reported skip (CI installs them all: .ci/install-system-packages).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPORTS_CLASS, startCliWorld, cli, makeReportsClass, reportTool } from './fixtures/cli/support.mjs';

const require = createRequire(import.meta.url);
const REF = `${REPORTS_CLASS}:CLAS/OC`;
const TESTS_FILE = 'src/zcl_cli_reports.clas.testclasses.abap';
const MAIN_FILE = 'src/zcl_cli_reports.clas.abap';
let world;

before(async () => {
  world = await startCliWorld();
  await makeReportsClass(world, assert);
});
after(async () => {
  await world?.close();
});

/** Run a program asynchronously (the simulated system lives in this event loop). */
function run(file, args, opts = {}) {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: 120_000, maxBuffer: 16 * 1024 * 1024, ...opts }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr }),
    );
  });
}

/** Write a report with the bin; its path. */
async function report(args, name, expectedCode) {
  const out = join(world.cwd, name);
  const done = await cli(world, [...args, '--output', out, '--quiet']);
  assert.equal(done.code, expectedCode, done.stderr);
  assert.equal(done.stdout, '', 'with --output nothing goes to stdout');
  return out;
}

/** The sarif-multitool binary (npm devDependency), or undefined. */
function sarifMultitool() {
  try {
    const path = require('@microsoft/sarif-multitool');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

async function whichLcov() {
  const found = await run('lcov', ['--version']);
  return found.code === 0 ? 'lcov' : undefined;
}

test('SARIF 2.1.0 passes sarif-multitool validate; findings map to file, line, column, rule and level', async (t) => {
  const tool = sarifMultitool();
  if (!tool) {
    t.skip('@microsoft/sarif-multitool is not installed (npm install)');
    return;
  }
  const file = await report(['atc', REF, 'ZCL_TEST_EXTRA', '--format', 'sarif'], 'atc.sarif', 1);
  const verdict = join(world.cwd, 'atc.validation.sarif');
  const checked = await run(tool, ['validate', file, '--output', verdict, '--level', 'Error;Warning;Note', '--log', 'ForceOverwrite']);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  const problems = JSON.parse(readFileSync(verdict, 'utf8')).runs[0].results.filter((r) => r.level === 'error' || r.level === 'warning');
  assert.deepEqual(problems, [], 'no schema errors and no warnings (notes are style suggestions)');

  const log = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(log.version, '2.1.0');
  const [sarifRun] = log.runs;
  const results = sarifRun.results.map((r) => {
    const loc = r.locations[0].physicalLocation;
    return [r.ruleId, r.level, loc.artifactLocation.uri, loc.region?.startLine, loc.region?.startColumn];
  });
  assert.deepEqual(results, [
    ['CL_CI_TEST_EXTENDED_CHECK/BREAK_POINT', 'error', MAIN_FILE, 13, 5],
    ['CL_CI_TEST_PERFORMANCE/WAIT_UP_TO', 'note', MAIN_FILE, 14, 5],
    ['CL_CI_TEST_EXTENDED_CHECK/UNUSED_VARIABLE', 'warning', MAIN_FILE, 15, 5],
    ['CL_CI_TEST_EXTENDED_CHECK/UNUSED_VARIABLE', 'warning', 'src/zcl_test_extra.clas.abap', 18, 5],
  ]);
  const rules = sarifRun.tool.driver.rules.map((r) => r.id);
  assert.deepEqual(rules, ['CL_CI_TEST_EXTENDED_CHECK/BREAK_POINT', 'CL_CI_TEST_PERFORMANCE/WAIT_UP_TO', 'CL_CI_TEST_EXTENDED_CHECK/UNUSED_VARIABLE']);
  assert.ok(sarifRun.results.every((r) => sarifRun.tool.driver.rules[r.ruleIndex].id === r.ruleId));
  const prefixed = JSON.parse(readFileSync(await report(['atc', REF, '--format', 'sarif', '--path-prefix', 'abap/src'], 'prefixed.sarif', 1), 'utf8'));
  assert.equal(prefixed.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'abap/src/zcl_cli_reports.clas.abap');
});

test('JUnit parses with junitparser: a suite per class, a case per method, the failure with message, time, file and line', async (t) => {
  const python = reportTool('python');
  if (!python) {
    t.skip('junitparser is not installed (target/report-tools: .ci/install-system-packages)');
    return;
  }
  const file = await report(['unit', REF, 'ZCL_TEST', '--format', 'junit'], 'unit.xml', 1);
  const script = `
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
out = {"tests": xml.tests, "failures": xml.failures, "suites": []}
for suite in xml:
    cases = []
    for case in suite:
        failure = next((r for r in case.result if isinstance(r, Failure)), None)
        cases.append({"name": case.name, "classname": case.classname, "time": case.time,
                      "file": case._elem.get("file"), "line": case._elem.get("line"),
                      "failure": None if failure is None else {"message": failure.message, "type": failure.type, "text": failure.text}})
    out["suites"].append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "cases": cases})
print(json.dumps(out))
`;
  const parsed = await run(python, ['-c', script, file]);
  assert.equal(parsed.code, 0, parsed.stderr);
  const junit = JSON.parse(parsed.stdout);
  assert.equal(junit.tests, 3);
  assert.equal(junit.failures, 1);
  assert.deepEqual(junit.suites.map((s) => [s.name, s.tests, s.failures]), [
    ['ZCL_CLI_REPORTS.LTCL_SIGN', 2, 1],
    ['ZCL_TEST.LTCL_TEST', 1, 0],
  ]);
  const [positive, broken] = junit.suites[0].cases;
  assert.deepEqual([positive.name, positive.classname, positive.file, positive.line, positive.failure], ['POSITIVE', 'ZCL_CLI_REPORTS.LTCL_SIGN', TESTS_FILE, '7', null]);
  assert.ok(positive.time > 0);
  assert.deepEqual([broken.name, broken.file, broken.line], ['BROKEN', TESTS_FILE, '11']);
  assert.equal(broken.failure.message, 'sign is broken');
  assert.equal(broken.failure.type, 'failedAssertion');
  assert.match(broken.failure.text, /at src\/zcl_cli_reports\.clas\.testclasses\.abap:11$/);
});

test('Cobertura parses with pycobertura: line and branch rates per object, the missed lines', async (t) => {
  const pycobertura = reportTool('pycobertura');
  const python = reportTool('python');
  if (!pycobertura || !python) {
    t.skip('pycobertura is not installed (target/report-tools: .ci/install-system-packages)');
    return;
  }
  const file = await report(['coverage', REF, 'ZCL_TEST', '--format', 'cobertura'], 'coverage.xml', 1);
  const script = `
import json, sys
from pycobertura import Cobertura
c = Cobertura(sys.argv[1])
print(json.dumps({"files": c.files(), "total": c.line_rate(),
  "per": {f: {"line": c.line_rate(f), "branch": c.branch_rate(f), "missed": c.missed_lines(f), "statements": c.total_statements(f)} for f in c.files()}}))
`;
  const parsed = await run(python, ['-c', script, file]);
  assert.equal(parsed.code, 0, parsed.stderr);
  const cov = JSON.parse(parsed.stdout);
  assert.deepEqual(cov.files, [MAIN_FILE, 'src/zcl_test.clas.abap']);
  assert.deepEqual(cov.per[MAIN_FILE], {
    line: 0.4,
    branch: 0.5,
    missed: [[8, 'partial'], [13, 'miss'], [14, 'miss'], [15, 'miss']],
    statements: 5,
  });
  assert.deepEqual(cov.per['src/zcl_test.clas.abap'], { line: 0.5, branch: 1, missed: [[25, 'miss']], statements: 2 });
  assert.equal(cov.total, 3 / 7);
  const shown = await run(pycobertura, ['show', file]);
  assert.equal(shown.code, 0, shown.stderr);
  // pycobertura's table counts the partly covered branch line (~8) as missed.
  assert.match(shown.stdout, /^src\/zcl_cli_reports\.clas\.abap\s+5\s+\d\s+[\d.]+%\s+~8, 13-15$/m);
  assert.match(shown.stdout, /^src\/zcl_test\.clas\.abap\s+2\s+1\s+50\.00%\s+25$/m);
});

test('LCOV reads with lcov --summary: lines and branches', async (t) => {
  const lcov = await whichLcov();
  if (!lcov) {
    t.skip('lcov is not installed (Debian package lcov: .ci/install-system-packages)');
    return;
  }
  const file = await report(['coverage', REF, '--format', 'lcov'], 'coverage.info', 1);
  const summary = await run(lcov, ['--summary', file, '--rc', 'lcov_branch_coverage=1']);
  assert.equal(summary.code, 0, summary.stderr);
  const text = summary.stdout + summary.stderr;
  assert.match(text, /lines\.+: 40\.0% \(2 of 5 lines\)/);
  assert.match(text, /branches\.+: 50\.0% \(1 of 2 branches\)/);
  const records = readFileSync(file, 'utf8');
  assert.match(records, /^SF:src\/zcl_cli_reports\.clas\.abap$/m);
  assert.match(records, /^DA:13,0$/m);
});

test('checkstyle parses as strict XML: a file per source, an error per finding with line, column, severity and rule', async (t) => {
  const python = reportTool('python');
  if (!python) {
    t.skip('the report tools venv is not installed (target/report-tools: .ci/install-system-packages)');
    return;
  }
  const file = await report(['atc', REF, '--format', 'checkstyle', '--fail-on', 'never'], 'atc.checkstyle.xml', 0);
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(json.dumps({"root": root.tag, "files": [{"name": f.get("name"), "errors": [dict(e.attrib) for e in f]} for f in root]}))
`;
  const parsed = await run(python, ['-c', script, file]);
  assert.equal(parsed.code, 0, parsed.stderr);
  const xml = JSON.parse(parsed.stdout);
  assert.equal(xml.root, 'checkstyle');
  assert.deepEqual(xml.files.map((f) => f.name), [MAIN_FILE]);
  assert.deepEqual(xml.files[0].errors, [
    { line: '13', column: '5', severity: 'error', message: 'BREAK-POINT statement found', source: 'CL_CI_TEST_EXTENDED_CHECK/BREAK_POINT' },
    { line: '14', column: '5', severity: 'info', message: 'WAIT UP TO blocks a work process', source: 'CL_CI_TEST_PERFORMANCE/WAIT_UP_TO' },
    { line: '15', column: '5', severity: 'warning', message: 'Variable LV_UNUSED is not used', source: 'CL_CI_TEST_EXTENDED_CHECK/UNUSED_VARIABLE' },
  ]);
});
