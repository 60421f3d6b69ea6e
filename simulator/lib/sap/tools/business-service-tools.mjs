// MCP business-service tools: the services of a binding (structuredContent is lossy like
// the real server's: it omits odataVersion; `isPublished` is sent at the top level, for OData
// V4 only) and one service's runtime information (an unpublished V4 binding fails inside the
// tool; an unpublished V2 one answers a successful `{error}`, as live adt-ls 1.1.2 does).
import { errorResult, jsonResult, missingArg } from './result.mjs';

function bindingByName(ctx, name) {
  const obj = ctx.repo.get(String(name ?? ''), 'SRVB/SVB');
  return obj?.binding ? obj : undefined;
}

function fetchServices(args, ctx) {
  const missing = missingArg(args, ['serviceBindingName', 'destination']);
  if (missing) return errorResult(`${missing} is required`);
  const obj = bindingByName(ctx, args.serviceBindingName);
  if (!obj) return errorResult(`Service binding ${args.serviceBindingName} does not exist`);
  const b = obj.binding;
  const service = {
    name: obj.name,
    content: [{ serviceDefinition: b.serviceDefinition, serviceVersion: b.serviceVersion }],
  };
  const data = {
    bindingType: b.bindingType,
    bindingCategory: b.bindingCategory,
    odataVersion: b.odataVersion,
    odataInfoUri: [{ href: b.odataInfoUri }],
    services: [service],
  };
  if (b.odataVersion === 'V4') data.isPublished = b.isPublished;
  const { odataVersion: _lost, ...structured } = data;
  return jsonResult(data, { structured });
}

function fetchServiceInformation(args, ctx) {
  const missing = missingArg(args, ['serviceBindingName', 'serviceName', 'serviceDefinition', 'serviceVersion', 'odataVersion', 'destination']);
  if (missing) return errorResult(`${missing} is required`);
  const obj = bindingByName(ctx, args.serviceBindingName);
  if (!obj) return errorResult(`Service binding ${args.serviceBindingName} does not exist`);
  const b = obj.binding;
  if (args.serviceName.toUpperCase() !== obj.name) return errorResult(`Service ${args.serviceName} is not part of ${obj.name}`);
  if (args.odataVersion !== b.odataVersion) return errorResult(`Service binding ${obj.name} is OData ${b.odataVersion}, not ${args.odataVersion}`);
  if (!b.isPublished && b.odataVersion === 'V2') {
    return jsonResult({ error: `Please publish the service binding ${obj.name} before requesting its service information.` });
  }
  if (!b.isPublished) return errorResult(`Service binding ${obj.name} is not published. Publish it first.`);
  return jsonResult({
    serviceUrl: `${ctx.origin}${b.serviceUrl}?sap-client=${ctx.session.client}`,
    entitySets: b.entitySets.map((e) => ({ name: e.name, navigations: [...e.navigations] })),
  });
}

export const businessServiceTools = {
  'abap_business_services-fetch_services': fetchServices,
  'abap_business_services-fetch_service_information': fetchServiceInformation,
};
