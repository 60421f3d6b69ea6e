// adt-ls 1.1.2 cannot filter a quick search by some subtypes (docs/decisions.md#d9-17): `SRVD/SRV`, `BDEF/BDO`, `DDLX/EX`
// and `NROB/NRO` find nothing, although the backend's own search filters them and a search by
// the bare main type (`SRVD`) finds the same objects. The references a search gets only
// through such a filter are dropped from its answer; `ADTLS_SIM_UNFILTERABLE_TYPES` adds more
// subtypes that behave the same (to exercise a client's main-type retry).

export const UNFILTERABLE_TYPES = Object.freeze(['SRVD/SRV', 'BDEF/BDO', 'DDLX/EX', 'NROB/NRO']);

/** The subtypes this adt-ls cannot filter by (upper case). */
export function unfilterableTypes(config) {
  return new Set([...UNFILTERABLE_TYPES, ...(config.unfilterableTypes ?? [])].map((t) => String(t).toUpperCase()));
}

/** A quickSearch answer as adt-ls returns it for `params`: broken filters match nothing. */
export function applySearchFilterBug(params, result, broken) {
  const types = Array.isArray(params?.types) ? params.types.map((t) => String(t).toUpperCase()) : [];
  if (!types.some((t) => broken.has(t)) || !Array.isArray(result?.references)) return result;
  const working = types.filter((t) => !broken.has(t));
  const matches = (type) => working.some((t) => t === type || t === type.split('/')[0]);
  return { ...result, references: result.references.filter((r) => matches(String(r.type ?? '').toUpperCase())) };
}
