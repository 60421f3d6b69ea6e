// Running applications (if_oo_adt_classrun) and service-binding actions, which adt-ls only
// serves for a binding that was read (readFile) earlier in the session. The binding details
// carry the field names live adt-ls 1.1.2 answers with (`odataversion`, `serviceType`,
// `serviceBindingName`, `services` as service-definition names, `objectData.published`).
// Publishing needs the request the VS Code extension builds: without `odataVersion` adt-ls
// fails with a NullPointerException (an internal error); OData V2 toggles the service
// content whose service definition is `serviceName` and otherwise answers
// `Missing or invalid inputs for publish action` as a not-executed result (an assumption,
// docs/decisions.md#d9-6); any other version toggles the binding.
import { badRequest, internalError } from '../errors.mjs';
import { objectKey, requireFile } from './resolve.mjs';

function runApplication(payload, ctx) {
  let uri = payload;
  if (Array.isArray(payload)) uri = payload[0];
  else if (payload && typeof payload === 'object') uri = payload.uri;
  const { obj } = requireFile(ctx, uri);
  const source = (obj.sources ?? obj.inactiveSources ?? {}).main ?? '';
  if (obj.type !== 'CLAS/OC' || !/if_oo_adt_classrun/i.test(source)) {
    throw badRequest(`${obj.name} cannot be run: it does not implement IF_OO_ADT_CLASSRUN`);
  }
  return obj.consoleOutput ?? '';
}

function bindingOf(payload, ctx) {
  const { obj } = requireFile(ctx, payload?.lsUri);
  if (obj.type !== 'SRVB/SVB' || !ctx.session.readObjects.has(objectKey(obj))) {
    throw badRequest('Unsupported Object Type');
  }
  return obj;
}

/** The service definitions a binding exposes. */
const definitionsOf = (b) => b.serviceDefinitions ?? (b.serviceDefinition ? [b.serviceDefinition] : []);

function getServiceBindingDetails(payload, ctx) {
  const obj = bindingOf(payload, ctx);
  const b = obj.binding;
  const details = { serviceBindingName: obj.name, serviceType: b.bindingType };
  if (b.odataVersion) details.odataversion = b.odataVersion;
  details.services = definitionsOf(b);
  details.objectData = { published: b.isPublished };
  return details;
}

const NULL_POINTER =
  'java.lang.NullPointerException: Cannot invoke "String.equals(Object)" because "odataVersion" is null\n' +
  '\tat com.sap.adt.businessservices.srvb.PublishAction.run(PublishAction.java:88)';

function publishandUnpublishAction(payload, ctx) {
  const obj = bindingOf(payload, ctx);
  const version = payload?.odataVersion;
  if (typeof version !== 'string' || version === '') throw internalError('Internal error', { data: NULL_POINTER });
  const b = obj.binding;
  if (version.toUpperCase() === 'V2' && !definitionsOf(b).includes(payload.serviceName)) {
    return { isExecuted: false, isPublishSuccess: false, statusMessage: 'Missing or invalid inputs for publish action' };
  }
  b.isPublished = !b.isPublished;
  const what = b.isPublished ? 'published' : 'unpublished';
  return { isExecuted: true, isPublishSuccess: true, statusMessage: `Service binding ${obj.name} ${what} successfully` };
}

export const serviceOps = {
  'adtLs/run/runApplication': runApplication,
  'adtLs/businessservice/srvb/getServiceBindingDetails': getServiceBindingDetails,
  'adtLs/businessservice/srvb/publishandUnpublishAction': publishandUnpublishAction,
};
