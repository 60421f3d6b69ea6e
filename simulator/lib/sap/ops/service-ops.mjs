// Running applications (if_oo_adt_classrun) and service-binding actions, which adt-ls only
// serves for a binding that was read (readFile) earlier in the session.
import { badRequest } from '../errors.mjs';
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

function getServiceBindingDetails(payload, ctx) {
  const obj = bindingOf(payload, ctx);
  const b = obj.binding;
  return {
    isExecuted: true,
    statusMessage: '',
    name: obj.name,
    bindingType: b.bindingType,
    bindingCategory: b.bindingCategory,
    odataVersion: b.odataVersion,
    isPublished: b.isPublished,
    serviceDefinition: b.serviceDefinition,
    serviceVersion: b.serviceVersion,
    serviceUrl: b.serviceUrl,
  };
}

function publishandUnpublishAction(payload, ctx) {
  const obj = bindingOf(payload, ctx);
  obj.binding.isPublished = !obj.binding.isPublished;
  const what = obj.binding.isPublished ? 'published' : 'unpublished';
  return { isExecuted: true, isPublishSuccess: true, statusMessage: `Service binding ${obj.name} ${what} successfully` };
}

export const serviceOps = {
  'adtLs/run/runApplication': runApplication,
  'adtLs/businessservice/srvb/getServiceBindingDetails': getServiceBindingDetails,
  'adtLs/businessservice/srvb/publishandUnpublishAction': publishandUnpublishAction,
};
