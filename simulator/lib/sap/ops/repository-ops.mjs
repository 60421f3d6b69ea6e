// Repository operations: quickSearch (incl. cold and dead-session behaviour), getLsUri and
// getUsers, served to the simulated adt-ls under their LSP method names.
import { badRequest, internalError } from '../errors.mjs';
import { SYSTEM_USERS } from '../model/seed.mjs';
import { adtUri, affUri } from '../model/uris.mjs';

function quickSearch(payload, ctx) {
  if (typeof payload?.pattern !== 'string' || payload.pattern.trim() === '') {
    throw badRequest('Parameter value must not be empty (pattern)');
  }
  if (ctx.faults.takeCold()) {
    if (ctx.faults.cold.mode === 'error') throw internalError('Internal error');
    return { references: [] };
  }
  if (ctx.session.state === 'silent-empty') return { references: [] };
  const hits = ctx.repo.search(payload.pattern, payload.types, payload.maxResults);
  return {
    references: hits.map((o) => ({
      name: o.name,
      description: o.description,
      type: o.type,
      uri: adtUri(o),
    })),
  };
}

function getLsUri(payload, ctx) {
  if (payload && payload.adtUri === undefined && payload.uri !== undefined) throw internalError('Internal error');
  if (typeof payload?.adtUri !== 'string') throw badRequest('The ADT URI could not be parsed');
  const obj = ctx.repo.findByAdtUri(payload.adtUri);
  if (!obj) return {};
  return { uri: affUri(payload.destination || 'ADTLS', obj) };
}

function getUsers(payload, ctx) {
  if (!payload?.destination) throw badRequest('Parameter destination must not be empty');
  const configured = Object.keys(ctx.config.users).map((id) => ({
    id: id.toUpperCase(),
    text: id.charAt(0).toUpperCase() + id.slice(1).toLowerCase(),
  }));
  return { users: [...configured, ...SYSTEM_USERS] };
}

export const repositoryOps = {
  'adtLs/repository/quickSearch': quickSearch,
  'adtLs/repository/getLsUri': getLsUri,
  'adtLs/repository/getUsers': getUsers,
};
