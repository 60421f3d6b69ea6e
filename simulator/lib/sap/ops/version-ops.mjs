// Source versions per session, as adt-ls 1.1.2 serves them (docs/decisions.md#d9-18):
// `abapStat {uri}` answers `{version: 1}` while the file is served as the session user's draft,
// else `{version: 0}`; `toggleVersion {uri}` flips the whole object to its other version for
// this session only (a "pinned active" flag, which any write of the session clears again).
// Toggling reloads the object's files from SAP, which stores sources with CRLF line ends, so
// until the session writes a file again it is served with CRLF (backend option
// `crlfOnReload`, default on); a write is served with the line ends it was sent with.
import { objectKey, requireFile } from './resolve.mjs';
import { typeInfo } from '../model/object-types.mjs';

const fileKey = (obj, part) => `${objectKey(obj)}:${part}`;

/** What readFile serves this session for one file: `{content, version}`. */
export function servedFile(ctx, obj, part) {
  const pinned = ctx.session.pinnedActive.has(objectKey(obj));
  const served = ctx.repo.readPart(obj, part, { user: ctx.session.user, pinned });
  if (ctx.config.crlfOnReload && ctx.session.reloadedFiles.has(fileKey(obj, part))) {
    return { ...served, content: served.content.replace(/\r?\n/g, '\r\n') };
  }
  return served;
}

/** A write of the session: the object serves its draft again, this file as written. */
export function wroteFile(ctx, obj, part) {
  ctx.session.pinnedActive.delete(objectKey(obj));
  ctx.session.reloadedFiles.delete(fileKey(obj, part));
}

function abapStat(payload, ctx) {
  const { obj, part } = requireFile(ctx, payload?.uri);
  return { version: servedFile(ctx, obj, part).version === 'inactive' ? 1 : 0 };
}

function toggleVersion(payload, ctx) {
  const { obj } = requireFile(ctx, payload?.uri);
  const key = objectKey(obj);
  if (ctx.session.pinnedActive.has(key)) ctx.session.pinnedActive.delete(key);
  else ctx.session.pinnedActive.add(key);
  const parts = ['main', ...(typeInfo(obj.type).includes ?? [])];
  for (const part of parts) ctx.session.reloadedFiles.add(fileKey(obj, part));
  return null;
}

export const versionOps = {
  'adtLs/fileSystem/abapStat': abapStat,
  'adtLs/fileSystem/toggleVersion': toggleVersion,
};
