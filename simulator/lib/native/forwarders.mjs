// The adt-ls native requests that live on the SAP backend (docs/wire.md#client-methods minus destinations/*
// and mcp/*). Each forwards its params unchanged to the logged-on backend session of its
// destination; backend errors come back with their message, code and data untouched. A
// `workDoneToken` is answered with `$/progress` (./progress.mjs) and not forwarded. adt-ls's
// own behaviour on top: quickSearch cannot filter by some subtypes (./search-filter.mjs), and
// readDirectory answers null for a URI outside every destination.

import { ResponseError } from 'vscode-jsonrpc/node.js';
import { INTERNAL_ERROR_CODE } from '../shell/gates.mjs';
import { resolveDestination } from './destination.mjs';
import { withWorkDoneProgress } from './progress.mjs';
import { applySearchFilterBug, unfilterableTypes } from './search-filter.mjs';

export const FORWARDED_METHODS = Object.freeze([
  'adtLs/abapUnit/runTests',
  'adtLs/activation/activate',
  'adtLs/activation/getInactiveObjects',
  'adtLs/atc/getCheckVariants',
  'adtLs/atc/runCheck',
  'adtLs/businessservice/srvb/getServiceBindingDetails',
  'adtLs/businessservice/srvb/publishandUnpublishAction',
  'adtLs/coverage/getCoverage',
  'adtLs/cts/transport/assignTransportToObject',
  'adtLs/cts/transport/checkTransportForObjectLock',
  'adtLs/cts/transport/searchTransports',
  'adtLs/fileSystem/abapStat',
  'adtLs/fileSystem/delete',
  'adtLs/fileSystem/getFileLockStatus',
  'adtLs/fileSystem/readDirectory',
  'adtLs/fileSystem/readFile',
  'adtLs/fileSystem/toggleVersion',
  'adtLs/fileSystem/writeFile',
  'adtLs/objectCreation/getCreationUiModelAndContent',
  'adtLs/repository/getLsUri',
  'adtLs/repository/getUsers',
  'adtLs/repository/quickSearch',
  'adtLs/run/runApplication',
]);

/** Serves one native request through the backend of its destination. */
export async function forwardToBackend(ctx, method, params) {
  const destination = resolveDestination(params, method);
  // adt-ls's file system has no listing for a URI outside a destination's repotree: it
  // answers null (docs/decisions.md#d9-19).
  if (!destination && method === 'adtLs/fileSystem/readDirectory') return null;
  if (!destination) throw new ResponseError(INTERNAL_ERROR_CODE, 'No destination');
  const backend = ctx.backend(destination);
  if (!backend) throw new ResponseError(INTERNAL_ERROR_CODE, `Destination ${destination} is not logged on`);
  const result = await backend.call(method, params);
  if (method === 'adtLs/repository/quickSearch') return applySearchFilterBug(params, result, unfilterableTypes(ctx.config));
  return result === undefined ? null : result;
}

export function registerForwarders(ctx) {
  for (const method of FORWARDED_METHODS) {
    ctx.onRequest(method, (params) =>
      withWorkDoneProgress(ctx, method, params, (plain) => forwardToBackend(ctx, method, plain)),
    );
  }
}
