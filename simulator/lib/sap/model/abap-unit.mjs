// ABAP Unit for the simulator: finds `FOR TESTING` classes and methods in a class's
// test include and "runs" them (a method fails when it calls cl_abap_unit_assert=>fail).

function statements(source) {
  return String(source ?? '')
    .split('\n')
    .filter((line) => !line.startsWith('*'))
    .map((line) => line.replace(/".*$/, ''))
    .join('\n')
    .split('.');
}

function methodBody(source, method) {
  const re = new RegExp(`METHOD\\s+${method}\\s*\\.([\\s\\S]*?)ENDMETHOD`, 'i');
  return re.exec(String(source ?? ''))?.[1] ?? '';
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

/** Runs the tests of one object's sources: `{classes: [{name, methods: [{name, status}]}]}`. */
export function runObjectTests(sources) {
  const testSource = sources?.testclasses ?? '';
  return findTestClasses(testSource).map((cls) => ({
    name: cls.name,
    methods: cls.methods.map((name) => {
      const failed = /cl_abap_unit_assert=>fail\s*\(/i.test(methodBody(testSource, name));
      return failed
        ? { name, status: 'FAILED', message: `Assertion failed in ${cls.name}->${name}` }
        : { name, status: 'PASSED' };
    }),
  }));
}
