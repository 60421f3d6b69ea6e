// `adtLs/fileSystem/readDirectory {uri}`: the children of a repotree directory as
// `{children: [{name, type}]}` (1 file, 2 directory). A file URI lists nothing, as live adt-ls
// does; an unknown directory lists nothing too (docs/decisions.md#d9-19).
import { badRequest } from '../errors.mjs';
import { listDirectory } from '../model/directory.mjs';
import { parseDirectoryUri } from '../model/uris.mjs';

function readDirectory(payload, ctx) {
  const parsed = parseDirectoryUri(payload?.uri);
  if (!parsed) throw badRequest(`The URI ${payload?.uri} is not a repository URI (expected abap:/repotree-v1/...)`);
  if (ctx.repo.resolveFileUri(payload.uri)?.obj) return { children: [] };
  return { children: listDirectory(ctx.repo, parsed.path) };
}

export const directoryOps = {
  'adtLs/fileSystem/readDirectory': readDirectory,
};
