// Loads the handler modules other parts of the simulator provide (logon, MCP). A module that
// does not exist yet is skipped; a module that exists but fails to load is a real error.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OPTIONAL_MODULES = Object.freeze([
  { path: '../logon/index.mjs', exportName: 'registerLogon' },
  { path: '../mcp/index.mjs', exportName: 'registerMcp' },
]);

/** Resolves to [{name, register}] for every optional module present on disk. */
export async function loadOptionalRegistrars(specs = OPTIONAL_MODULES) {
  const found = [];
  for (const spec of specs) {
    const url = new URL(spec.path, import.meta.url);
    if (!existsSync(fileURLToPath(url))) continue;
    const mod = await import(url.href);
    if (typeof mod[spec.exportName] === 'function') found.push({ name: spec.exportName, register: mod[spec.exportName] });
  }
  return found;
}
