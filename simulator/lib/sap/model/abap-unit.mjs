// ABAP Unit for the simulator: finds `FOR TESTING` classes and methods in a class's
// test include and "runs" them. A method fails when it calls cl_abap_unit_assert=>fail
// (its `msg` is the message) or an assert_equals whose `act` and `exp` are different
// literals. Each method reports a deterministic execution time and, as ADT does, where
// it is (`<test include URI>#start=<line>,<column>`) and, when it failed, an alert with
// the failing line on its stack.

function statements(source) {
  return String(source ?? '')
    .split('\n')
    .filter((line) => !line.startsWith('*'))
    .map((line) => line.replace(/".*$/, ''))
    .join('\n')
    .split('.');
}

/** `{line, column}` (1-based line, 0-based column) of the first match of `re`, or undefined. */
function positionOf(source, re) {
  const lines = String(source ?? '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(lines[i]);
    if (m) return { line: i + 1, column: m.index };
  }
  return undefined;
}

function methodBody(source, method) {
  const re = new RegExp(`METHOD\\s+${method}\\s*\\.([\\s\\S]*?)ENDMETHOD`, 'i');
  const m = re.exec(String(source ?? ''));
  if (!m) return { body: '', firstLine: 0 };
  const before = String(source).slice(0, m.index + m[0].indexOf(m[1]));
  return { body: m[1], firstLine: before.split('\n').length };
}

/** Test classes of one test include: `[{name, methods: [name]}]`. */
export function findTestClasses(testSource) {
  const classes = [];
  let current = null;
  for (const statement of statements(testSource)) {
    const text = statement.trim().replace(/\s+/g, ' ');
    const classDef = /^CLASS (\w+) DEFINITION\b(.*)$/i.exec(text);
    if (classDef) {
      current = /FOR TESTING/i.test(classDef[2]) ? { name: classDef[1].toUpperCase(), methods: [] } : null;
      if (current) classes.push(current);
      continue;
    }
    if (current && /^METHODS\b/i.test(text)) {
      for (const m of text.replace(/^METHODS\s*:?/i, '').split(',')) {
        const match = /^\s*(\w+)\s+FOR TESTING/i.exec(m);
        if (match) current.methods.push(match[1].toUpperCase());
      }
    }
    if (/^ENDCLASS$/i.test(text)) current = null;
  }
  return classes.filter((c) => c.methods.length > 0);
}

const FAIL_CALL = /cl_abap_unit_assert=>fail\s*\(([^)]*)\)/i;
const EQUALS_CALL = /cl_abap_unit_assert=>assert_equals\s*\(([\s\S]*?)\)\s*\./i;
const LITERAL = /^(-?\d+|'[^']*')$/;

/** The failure of one method body: `{message, offset}` (offset of the failing call), or undefined. */
function failureOf(body, cls, method) {
  const fail = FAIL_CALL.exec(body);
  if (fail) {
    const msg = /\bmsg\s*=\s*'([^']*)'/i.exec(fail[1])?.[1];
    return { message: msg ?? `Assertion failed in ${cls}->${method}`, offset: fail.index };
  }
  const equals = EQUALS_CALL.exec(body);
  if (equals) {
    const act = /\bact\s*=\s*(\S+)/i.exec(equals[1])?.[1];
    const exp = /\bexp\s*=\s*(\S+)/i.exec(equals[1])?.[1];
    if (act && exp && LITERAL.test(act) && LITERAL.test(exp) && act !== exp) {
      const strip = (v) => v.replace(/^'|'$/g, '');
      return { message: `Expected [${strip(exp)}] but was [${strip(act)}]`, offset: equals.index };
    }
  }
  return undefined;
}

/** A deterministic execution time in seconds: 1 ms per statement of the body, at least 1 ms. */
function executionTime(body) {
  const count = body.split('.').filter((s) => s.trim() !== '').length;
  return Math.max(1, count) / 1000;
}

function runMethod(testSource, includeUri, cls, name) {
  const { body, firstLine } = methodBody(testSource, name);
  const at = positionOf(testSource, new RegExp(`^\\s*METHOD\\s+${name}\\s*\\.`, 'i'));
  const result = {
    name,
    status: 'PASSED',
    executionTime: executionTime(body),
    ...(includeUri && at ? { uri: `${includeUri}#start=${at.line},${at.column}` } : {}),
  };
  const failure = failureOf(body, cls, name);
  if (!failure) return result;
  const lineInBody = body.slice(0, failure.offset).split('\n').length - 1;
  const line = firstLine + lineInBody;
  const column = body.slice(0, failure.offset).split('\n').pop().length;
  const stackUri = includeUri ? `${includeUri}#start=${line},${column}` : undefined;
  return {
    ...result,
    status: 'FAILED',
    message: failure.message,
    alerts: [
      {
        kind: 'failedAssertion',
        severity: 'critical',
        title: failure.message,
        details: [`Test ${cls}->${name}`],
        stack: [{ ...(stackUri ? { uri: stackUri } : {}), line, description: `Include: testclasses Line: <${line}> (${name})` }],
      },
    ],
  };
}

/**
 * Runs the tests of one object's sources: `[{name, uri?, methods: [{name, status,
 * executionTime, uri?, message?, alerts?}]}]`. `includeUri` is the ADT URI of the test
 * include (`/sap/bc/adt/oo/classes/zcl_x/includes/testclasses`); without it no URIs are given.
 */
export function runObjectTests(sources, includeUri) {
  const testSource = sources?.testclasses ?? '';
  return findTestClasses(testSource).map((cls) => {
    const at = positionOf(testSource, new RegExp(`^\\s*CLASS\\s+${cls.name}\\s+DEFINITION\\b`, 'i'));
    return {
      name: cls.name,
      ...(includeUri && at ? { uri: `${includeUri}#start=${at.line},${at.column}` } : {}),
      methods: cls.methods.map((name) => runMethod(testSource, includeUri, cls.name, name)),
    };
  });
}
