// All MCP tool semantics of the simulated backend, as ops named `tool:<toolName>`. Each
// handler returns `{text, structuredContent?, isError?}`; a missing destination binding is
// the MCP server's business (S3), not the backend's.
import { atcTools } from './atc-tools.mjs';
import { businessServiceTools } from './business-service-tools.mjs';
import { creationTools } from './creation-tools.mjs';
import { generatorTools } from './generator-tools.mjs';
import { jsonResult } from './result.mjs';
import { transportTools } from './transport-tools.mjs';
import { unitTools } from './unit-tools.mjs';

/** The destinations this session serves; S3 passes `destination` (the adt-ls id). */
function listDestinations(args, ctx) {
  const entry = {
    destination: args?.destination ?? args?.destinationId ?? `A4H_${ctx.session.client}_${ctx.session.user}_EN`,
    systemId: ctx.config.sid,
    client: ctx.session.client,
    user: ctx.session.user,
    language: 'EN',
  };
  return jsonResult([entry], { structured: undefined });
}

export const toolHandlers = {
  ...atcTools,
  ...businessServiceTools,
  ...creationTools,
  ...generatorTools,
  ...transportTools,
  ...unitTools,
  abap_list_destinations: listDestinations,
};
