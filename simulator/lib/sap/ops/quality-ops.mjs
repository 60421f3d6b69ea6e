// Quality operations: ATC check variants and runs, ABAP Unit runs with coverage, and the
// coverage lookup. Positions are ADT source URIs with a `#start=<line>,<column>` fragment
// (`/sap/bc/adt/oo/classes/zcl_x/source/main#start=12,4`, class includes under
// `/includes/<part>`), as ADT reports them.
import { randomBytes } from 'node:crypto';
import { badRequest, notFound } from '../errors.mjs';
import { runObjectTests } from '../model/abap-unit.mjs';
import { atcFindings } from '../model/atc-checks.mjs';
import { objectCoverage } from '../model/coverage.mjs';
import { ATC_VARIANTS } from '../model/seed.mjs';
import { adtUri } from '../model/uris.mjs';
import { requireObject } from './resolve.mjs';

function variantRegExp(input) {
  const text = input.trim().toUpperCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${text}${input.includes('*') ? '' : '.*'}$`);
}

function getCheckVariants(payload) {
  const input = payload?.quickPickUserInput;
  if (typeof input !== 'string' || input.trim() === '') throw badRequest('Parameter value must not be empty');
  const re = variantRegExp(input);
  return ATC_VARIANTS.filter((v) => re.test(v.name)).map((v) => ({ ...v }));
}

/** The ADT URI of one source part of an object: `<object>/source/main` or `<object>/includes/<part>`. */
export function sourceUri(obj, part = 'main') {
  return `${adtUri(obj)}/${part === 'main' ? 'source/main' : `includes/${part}`}`;
}

function runCheck(payload, ctx) {
  const variant = payload?.checkVariant ?? '';
  if (variant !== '' && !ATC_VARIANTS.some((v) => v.name === variant.toUpperCase())) {
    throw badRequest(`Check variant ${variant} does not exist`);
  }
  const obj = ctx.repo.findByAnyUri(payload?.objectUri);
  if (!obj) throw badRequest('Object to be checked could not be determined');
  return {
    atcRunCheckResults: atcFindings(obj).map((f) => ({
      objectName: obj.name,
      objectType: obj.type,
      uri: adtUri(obj),
      priority: f.priority,
      checkId: f.checkClass,
      checkTitle: f.checkTitle,
      messageId: f.messageId,
      messageTitle: f.messageTitle,
      location: {
        part: f.part,
        line: f.line + 1,
        column: f.column,
        uri: `${sourceUri(obj, f.part)}#start=${f.line + 1},${f.column}`,
      },
    })),
  };
}

/** Runs the unit tests of every object behind `uris` (active versions). */
export function runTestsForUris(uris, ctx) {
  const results = [];
  for (const uri of uris) {
    const obj = requireObject(ctx, uri);
    if (!obj.sources) throw badRequest(`Object ${obj.name} has no active version; activate it first`);
    results.push({ obj, uri, classes: runObjectTests(obj.sources, sourceUri(obj, 'testclasses')) });
  }
  return results;
}

function summarise(results) {
  const methods = results.flatMap((r) => r.classes.flatMap((c) => c.methods));
  const failed = methods.filter((m) => m.status === 'FAILED').length;
  let status = 'PASSED';
  if (methods.length === 0) status = 'NO_TESTS';
  else if (failed > 0) status = 'FAILED';
  return { status, total: methods.length, passed: methods.length - failed, failed };
}

function runTests(payload, ctx) {
  if (payload && 'lsUris' in payload) throw badRequest('Unrecognized field "lsUris": expected "uris" (adt-ls >= 1.1.2)');
  if (!Array.isArray(payload?.uris) || payload.uris.length === 0) throw badRequest('Parameter uris must not be empty');
  const results = runTestsForUris(payload.uris, ctx);
  const { status, ...counts } = summarise(results);
  const result = {
    ...counts,
    testClasses: results.flatMap((r) => r.classes.map((c) => ({ object: r.obj.name, ...c }))),
  };
  const response = { status, result };
  if (payload.measurement === 'COVERAGE' && status !== 'NO_TESTS') {
    const resultId = randomBytes(8).toString('hex').toUpperCase();
    ctx.state.coverage.set(resultId, results);
    response.coverageParams = { uris: [...payload.uris], resultId };
  }
  return response;
}

function getCoverage(payload, ctx) {
  const results = ctx.state.coverage.get(payload?.resultId);
  if (!results) throw notFound(`Coverage result ${payload?.resultId} not found`);
  return {
    coverage: {
      objects: results.map((r) => ({
        name: r.obj.name,
        type: r.obj.type,
        uri: r.uri,
        ...objectCoverage(r.obj, sourceUri(r.obj)),
      })),
      testClasses: results.flatMap((r) => r.classes.map((c) => c.name)),
    },
  };
}

export const qualityOps = {
  'adtLs/atc/getCheckVariants': getCheckVariants,
  'adtLs/atc/runCheck': runCheck,
  'adtLs/abapUnit/runTests': runTests,
  'adtLs/coverage/getCoverage': getCoverage,
};
