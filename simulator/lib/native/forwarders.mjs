// The adt-ls native requests that live on the SAP backend (docs/wire.md#client-methods minus destinations/*
// and mcp/*). Each forwards its params unchanged to the logged-on backend session of its
// destination; backend errors come back with their message, code and data untouched. A
// `workDoneToken` is answered with `$/progress` (./progress.mjs) and not forwarded.

import { ResponseError } from 'vscode-jsonrpc/node.js';
import { INTERNAL_ERROR_CODE } from '../shell/gates.mjs';
import { resolveDestination } from './destination.mjs';
import { withWorkDoneProgress } from './progress.mjs';

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
  'adtLs/fileSystem/delete',
  'adtLs/fileSystem/getFileLockStatus',
  'adtLs/fileSystem/readFile',
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
  if (!destination) throw new ResponseError(INTERNAL_ERROR_CODE, 'No destination');
  const backend = ctx.backend(destination);
  if (!backend) throw new ResponseError(INTERNAL_ERROR_CODE, `Destination ${destination} is not logged on`);
  const result = await backend.call(method, params);
  return result === undefined ? null : result;
}

export function registerForwarders(ctx) {
  for (const method of FORWARDED_METHODS) {
    ctx.onRequest(method, (params) =>
      withWorkDoneProgress(ctx, method, params, (plain) => forwardToBackend(ctx, method, plain)),
    );
  }
}
