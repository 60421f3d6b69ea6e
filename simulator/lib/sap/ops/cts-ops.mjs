// Change and Transport System operations: transport search (cold / dead-session aware),
// the lock check (the CTS lock as `isLockedInRequests` and `locks[].number`, request numbers
// only; a lock held in a task of another client fails the check with SAP's message in
// `checkMessages.errorMessages`), assignment (a bare boolean, `true` even for unknown
// requests, as adt-ls 1.1.2 does; see ../model/cts-locks.mjs) and the transport list shapes.
import { badRequest, internalError } from '../errors.mjs';
import { assignToTransport, lockReport, ofClient } from '../model/cts-locks.mjs';
import { LOCAL_PACKAGE } from '../model/uris.mjs';
import { requireObject } from './resolve.mjs';

const summary = (t) => ({
  number: t.number,
  description: t.description,
  owner: t.owner,
  status: t.status,
  type: t.type,
  target: t.target,
  tasks: t.tasks.map((task) => ({ ...task })),
});

/** The modifiable transports a session of this client sees. */
const modifiable = (ctx) =>
  [...ctx.repo.transports.values()].filter((t) => t.status === 'modifiable' && ofClient(t, ctx.session.client));

function searchTransports(payload, ctx) {
  if (!payload?.destinationId) throw badRequest('Parameter destinationId must not be empty');
  if (ctx.faults.takeCold()) throw internalError('Internal error');
  if (ctx.session.state === 'silent-empty') throw internalError('Internal error');
  const list = modifiable(ctx).map(summary);
  const shape = ctx.config.transportListShape;
  if (shape === 'transports') return { transports: list };
  if (shape === 'requests') return { requests: list };
  return list;
}

function checkTransportForObjectLock(payload, ctx) {
  const uri = payload?.objectInfo?.objectUri;
  if (typeof uri !== 'string' || uri === '') throw badRequest('Parameter objectUri must not be empty');
  const obj = requireObject(ctx, uri);
  const local = obj.packageName === LOCAL_PACKAGE;
  const pkg = ctx.repo.packages.get(obj.packageName);
  const lock = lockReport(ctx.repo, obj, ctx.session.client);
  const candidates = local ? [] : modifiable(ctx);
  return {
    isTransportCheckSuccessful: lock.successful,
    isRecordingRequired: !local,
    isLocalObject: local,
    operationType: payload.operationType ?? 'MODIFY',
    packageName: obj.packageName,
    transportLayer: payload.transportLayer || pkg?.transportLayer || '',
    lockedTransport: lock.request ? lock.request.number : null,
    isLockedInRequests: lock.locked,
    locks: lock.locks,
    transportRequests: candidates.map((t) => ({ number: t.number, description: t.description, owner: t.owner })),
    checkMessages: { errorMessages: lock.errorMessages },
    messages: [],
  };
}

function assignTransportToObject(payload, ctx) {
  if (typeof payload?.objectUri !== 'string') throw badRequest('Parameter objectUri must not be empty');
  if (typeof payload.transport !== 'string' || payload.transport === '') {
    throw badRequest('Parameter transport must not be empty');
  }
  const obj = requireObject(ctx, payload.objectUri);
  // Objects of the local package are never recorded: nothing changes, the answer stays `true`.
  if (obj.packageName !== LOCAL_PACKAGE) assignToTransport(ctx.repo, payload.transport, obj, ctx.session.client);
  return true;
}

export const ctsOps = {
  'adtLs/cts/transport/searchTransports': searchTransports,
  'adtLs/cts/transport/checkTransportForObjectLock': checkTransportForObjectLock,
  'adtLs/cts/transport/assignTransportToObject': assignTransportToObject,
};
