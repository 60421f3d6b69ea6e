// File-system operations on repotree URIs: readFile (the version the session is served,
// ./version-ops.mjs), writeFile (the session user's draft; refused while another user's draft
// exists), delete (with the 1.1.2 options rules), lock status and explicit lock/unlock.
import { randomBytes } from 'node:crypto';
import { badRequest, internalError, SapError } from '../errors.mjs';
import { isJsonOnly, typeInfo } from '../model/object-types.mjs';
import { objectKey, requireFile } from './resolve.mjs';
import { servedFile, wroteFile } from './version-ops.mjs';

const MAX_LINE = 255;

function readFile(payload, ctx) {
  const hit = ctx.repo.resolveFileUri(payload?.uri);
  // adt-ls answers an unusable URI shape (or a wrongly encoded one) with an empty object.
  if (!hit || (hit.obj && !hit.canonical)) return {};
  const { obj, part } = requireFile(ctx, payload.uri);
  ctx.session.readObjects.add(objectKey(obj));
  return { content: servedFile(ctx, obj, part).content };
}

function assertNoOtherDraft(obj, ctx) {
  const owner = ctx.repo.draftOwnerOtherThan(obj, ctx.session.user);
  if (owner) {
    throw new SapError(`Object ${obj.name} has an inactive version of user ${owner}; only ${owner} can change it before it is activated`, { status: 423 });
  }
}

function assertNotLockedByOther(obj, ctx) {
  if (obj.lockedBy && obj.lockedBy !== ctx.session.user) {
    throw new SapError(`Object ${obj.name} is currently locked by user ${obj.lockedBy}`, { status: 423 });
  }
}

function writeFile(payload, ctx) {
  const { obj, part } = requireFile(ctx, payload?.uri);
  if (typeof payload.content !== 'string') throw badRequest('Parameter content must be a string');
  if (!typeInfo(obj.type).supported) {
    throw badRequest(`Object type ${obj.type} is not supported in ADT in VS Code`);
  }
  if (part === 'metadata' || isJsonOnly(obj.type)) throw badRequest(`The file ${payload.uri} cannot be changed`);
  const long = payload.content.split('\n').findIndex((line) => line.replace(/\r$/, '').length > MAX_LINE);
  if (long >= 0) throw badRequest(`Line ${long + 1} exceeds ${MAX_LINE} characters`);
  assertNotLockedByOther(obj, ctx);
  assertNoOtherDraft(obj, ctx);
  ctx.repo.writePart(obj, part, payload.content, ctx.session.user);
  wroteFile(ctx, obj, part);
  return null;
}

function deleteFile(payload, ctx) {
  if (!payload?.options) throw internalError('Internal error');
  const { obj } = requireFile(ctx, payload.uri);
  if (!payload.uri.endsWith('.json')) throw badRequest('Please delete the *.json file of the object');
  if (payload.options.force !== true) {
    throw new SapError(
      `Deleting ${obj.name} deletes the whole object with all its files. Confirm with force.`,
      { status: 409, code: 1003 },
    );
  }
  assertNotLockedByOther(obj, ctx);
  ctx.repo.delete(obj);
  return null;
}

function getFileLockStatus(payload, ctx) {
  const { obj } = requireFile(ctx, payload?.uri);
  return { lockingSupported: typeInfo(obj.type).supported, lockId: obj.lockId ?? null };
}

function lockFile(payload, ctx) {
  const { obj } = requireFile(ctx, payload?.uri);
  assertNotLockedByOther(obj, ctx);
  obj.lockId = obj.lockId ?? randomBytes(10).toString('hex').toUpperCase();
  obj.lockedBy = ctx.session.user;
  return { operationExecuted: true };
}

function unlockFile(payload, ctx) {
  const { obj } = requireFile(ctx, payload?.uri);
  if (obj.lockedBy === ctx.session.user) {
    delete obj.lockId;
    delete obj.lockedBy;
  }
  return { operationExecuted: true };
}

export const fileOps = {
  'adtLs/fileSystem/readFile': readFile,
  'adtLs/fileSystem/writeFile': writeFile,
  'adtLs/fileSystem/delete': deleteFile,
  'adtLs/fileSystem/getFileLockStatus': getFileLockStatus,
  'adtLs/fileSystem/lockFile': lockFile,
  'adtLs/fileSystem/unlockFile': unlockFile,
};
