// Registers everything the simulated adt-ls serves natively over LSP, apart from the
// destination (lib/logon) and MCP (lib/mcp) requests: the backend-forwarded adtLs/* methods
// and the standard document features on opened documents.

import { createDocumentStore, registerDocumentSync } from './documents.mjs';
import { registerForwarders } from './forwarders.mjs';
import { registerTextDocumentFeatures } from './text-document.mjs';

export { FORWARDED_METHODS, forwardToBackend } from './forwarders.mjs';
export { resolveDestination } from './destination.mjs';

export function registerNative(ctx) {
  registerForwarders(ctx);
  const store = createDocumentStore();
  registerDocumentSync(ctx, store);
  registerTextDocumentFeatures(ctx, store);
  return { documents: store };
}
