// The MCP tool catalogue: the 20 tool descriptors captured from adt-ls 1.1.2 (VFS mode),
// served verbatim, and the 15-tool subset adt-ls exposes without fileSystemMode "VFS".
import { readFileSync } from 'node:fs';

const FIXTURE_URL = new URL('../../fixtures/adt-ls-1.1.2-capabilities.json', import.meta.url);

/** The tools adt-ls 1.1.2 only lists when startMCPServer carried fileSystemMode:"VFS". */
export const VFS_ONLY_TOOLS = Object.freeze([
  'abap_creation-create_object',
  'abap_activate_objects',
  'abap_run_unit_tests',
  'abap_generators-generate_objects',
  'abap_atc_run',
]);

let cached;

/** All 20 captured descriptors, in capture order (a fresh deep copy on every call). */
export function capturedTools() {
  if (!cached) cached = JSON.parse(readFileSync(FIXTURE_URL, 'utf8')).tools;
  return structuredClone(cached);
}

/** The descriptors a server started with this fileSystemMode lists. */
export function toolsForMode(fileSystemMode) {
  const all = capturedTools();
  if (fileSystemMode === 'VFS') return all;
  return all.filter((tool) => !VFS_ONLY_TOOLS.includes(tool.name));
}
