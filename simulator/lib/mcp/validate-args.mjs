// Validates tools/call arguments against a tool's inputSchema with ajv (the copy the MCP SDK
// depends on) and phrases the problems the way a JSON-RPC -32602 error message should.
import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);
// Resolve ajv through the SDK so we use exactly the ajv it ships with.
const requireFromSdk = createRequire(requireFromHere.resolve('@modelcontextprotocol/sdk/validation/ajv'));
const ajvModule = requireFromSdk('ajv');
const Ajv = ajvModule.default ?? ajvModule;

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
const compiled = new WeakMap();

function describe(error) {
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '';
  switch (error.keyword) {
    case 'additionalProperties':
      return `unexpected property '${where ? `${where}.` : ''}${error.params.additionalProperty}'`;
    case 'required':
      return `missing required property '${where ? `${where}.` : ''}${error.params.missingProperty}'`;
    case 'enum':
      return `${where || 'arguments'} must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where || 'arguments'} ${error.message}`;
  }
}

/**
 * Checks `args` against `tool.inputSchema`. Returns undefined when valid, otherwise a
 * message such as "Invalid arguments for tool abap_run_unit_tests: unexpected property 'destination'".
 */
export function argumentProblem(tool, args) {
  let validate = compiled.get(tool.inputSchema);
  if (!validate) {
    validate = ajv.compile(tool.inputSchema ?? { type: 'object' });
    compiled.set(tool.inputSchema, validate);
  }
  if (validate(args)) return undefined;
  const problems = [...new Set((validate.errors ?? []).map(describe))];
  return `Invalid arguments for tool ${tool.name}: ${problems.join('; ')}`;
}
