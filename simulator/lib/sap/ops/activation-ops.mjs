// Native activation operations: activate (1.1.2 field names only) and the inactive list.
import { badRequest } from '../errors.mjs';
import { adtUri, affUri } from '../model/uris.mjs';
import { activateUris } from './activation.mjs';

function activate(payload, ctx) {
  for (const legacy of ['lsUris', 'refreshLsUris']) {
    if (payload && legacy in payload) {
      throw badRequest(`Unrecognized field "${legacy}": adtLs/activation/activate expects "fileUris" (adt-ls >= 1.1.2)`);
    }
  }
  if (!Array.isArray(payload?.fileUris) || payload.fileUris.length === 0) {
    throw badRequest('Parameter fileUris must not be empty');
  }
  return activateUris(payload.fileUris, ctx);
}

function getInactiveObjects(payload, ctx) {
  if (!payload?.destination) throw badRequest('Parameter destination must not be empty');
  return ctx.repo
    .all()
    .filter((o) => ctx.repo.isInactive(o))
    .map((o) => ({
      name: o.name,
      type: o.type,
      uri: adtUri(o),
      fileUri: affUri(payload.destination, o),
      user: o.draft?.owner ?? o.owner,
      transport: ctx.repo.transportsOf(o).find((t) => t.status === 'modifiable')?.number ?? '',
    }));
}

export const activationOps = {
  'adtLs/activation/activate': activate,
  'adtLs/activation/getInactiveObjects': getInactiveObjects,
};
