// Change and Transport System operations: transport search (cold / dead-session aware),
// the lock check, assignment (a bare boolean, `true` even for unknown requests, as adt-ls
// does) and the transport list shapes.
import { badRequest, internalError } from '../errors.mjs';
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

function searchTransports(payload, ctx) {
  if (!payload?.destinationId) throw badRequest('Parameter destinationId must not be empty');
  if (ctx.faults.takeCold()) throw internalError('Internal error');
  if (ctx.session.state === 'silent-empty') throw internalError('Internal error');
  const list = [...ctx.repo.transports.values()].filter((t) => t.status === 'modifiable').map(summary);
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
  const locked = ctx.repo.transportsOf(obj).find((t) => t.status === 'modifiable');
  const candidates = local ? [] : [...ctx.repo.transports.values()].filter((t) => t.status === 'modifiable');
  return {
    isTransportCheckSuccessful: true,
    isRecordingRequired: !local,
    isLocalObject: local,
    operationType: payload.operationType ?? 'MODIFY',
    packageName: obj.packageName,
    transportLayer: payload.transportLayer || pkg?.transportLayer || '',
    lockedTransport: locked ? locked.number : null,
    transportRequests: candidates.map((t) => ({ number: t.number, description: t.description, owner: t.owner })),
    messages: [],
  };
}

function assignTransportToObject(payload, ctx) {
  if (typeof payload?.objectUri !== 'string') throw badRequest('Parameter objectUri must not be empty');
  if (typeof payload.transport !== 'string' || payload.transport === '') {
    throw badRequest('Parameter transport must not be empty');
  }
  const obj = requireObject(ctx, payload.objectUri);
  ctx.repo.addToTransport(payload.transport, obj);
  return true;
}

export const ctsOps = {
  'adtLs/cts/transport/searchTransports': searchTransports,
  'adtLs/cts/transport/checkTransportForObjectLock': checkTransportForObjectLock,
  'adtLs/cts/transport/assignTransportToObject': assignTransportToObject,
};
