// MCP tools on file URIs: abap_run_unit_tests (plain-text status, closed `{uris}` schema)
// and abap_activate_objects.
import { activateUris } from '../ops/activation.mjs';
import { runTestsForUris } from '../ops/quality-ops.mjs';
import { errorResult, jsonResult, textResult } from './result.mjs';

function extraKeys(args) {
  return Object.keys(args ?? {}).filter((k) => k !== 'uris');
}

function uriListProblem(args) {
  const extra = extraKeys(args);
  if (extra.length > 0) return `Invalid arguments: unexpected property "${extra[0]}"`;
  if (!Array.isArray(args?.uris) || args.uris.length === 0) return 'uris must contain at least one file URI';
  if (args.uris.some((u) => typeof u !== 'string' || !u.startsWith('abap:/'))) {
    return 'uris must be file URIs (abap:/repotree-v1/...), not ADT URIs';
  }
  return undefined;
}

function runUnitTests(args, ctx) {
  const problem = uriListProblem(args);
  if (problem) return errorResult(problem);
  let results;
  try {
    results = runTestsForUris(args.uris, ctx);
  } catch (err) {
    return errorResult(err.message);
  }
  const methods = results.flatMap((r) => r.classes.flatMap((c) => c.methods.map((m) => ({ ...m, cls: c.name }))));
  if (methods.length === 0) return textResult('No tests found');
  const failed = methods.filter((m) => m.status === 'FAILED');
  if (failed.length === 0) return textResult('Overall Test Run Status: [PASSED]');
  const lines = failed.map((m) => `  ${m.cls}->${m.name}: ${m.message}`);
  return textResult(`Overall Test Run Status: [FAILED]\nFailed tests (${failed.length} of ${methods.length}):\n${lines.join('\n')}`);
}

function activateObjects(args, ctx) {
  const problem = uriListProblem(args);
  if (problem) return errorResult(problem);
  try {
    const result = activateUris(args.uris, ctx);
    return jsonResult({ success: result.isActivationExecuted, objectDiagnostics: result.objectDiagnostics }, { structured: undefined });
  } catch (err) {
    return errorResult(err.message);
  }
}

export const unitTools = {
  abap_run_unit_tests: runUnitTests,
  abap_activate_objects: activateObjects,
};
