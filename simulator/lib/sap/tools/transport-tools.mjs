// MCP transport tools: find the transports relevant for an object and create a new one.
import { LOCAL_PACKAGE } from '../model/uris.mjs';
import { diffTools } from './diff-paging.mjs';
import { errorResult, jsonResult, missingArg } from './result.mjs';

function lengthProblem(args) {
  for (const [name, min, max] of [['objectName', 1, 30], ['developmentPackage', 1, 30], ['objectType', 5, 8]]) {
    const value = String(args[name] ?? '');
    if (value.length < min || value.length > max) return `${name} must have ${min} to ${max} characters`;
  }
  return undefined;
}

function transportGet(args, ctx) {
  const missing = missingArg(args, ['destination', 'objectName', 'objectType', 'developmentPackage']);
  if (missing) return errorResult(`${missing} is required`);
  const problem = lengthProblem(args);
  if (problem) return errorResult(problem);
  const pkg = args.developmentPackage.toUpperCase();
  if (!ctx.repo.packages.has(pkg)) return errorResult(`Package ${args.developmentPackage} does not exist`);
  if (pkg === LOCAL_PACKAGE) {
    return jsonResult({
      transportRequests: [],
      informationMessages: ['Objects in the local package $TMP are not recorded in transport requests.'],
      isRecordingRequired: false,
    });
  }
  const obj = ctx.repo.get(args.objectName, args.objectType);
  const locked = obj ? ctx.repo.transportsOf(obj).filter((t) => t.status === 'modifiable') : [];
  const own = [...ctx.repo.transports.values()].filter((t) => t.status === 'modifiable' && t.owner === ctx.session.user);
  const candidates = locked.length > 0 ? locked : own;
  const informationMessages = locked.length > 0 ? [`${args.objectName} is already locked in ${locked[0].number}.`] : [];
  return jsonResult({
    transportRequests: candidates.map((t) => ({ transportRequestNumber: t.number, shortDescription: t.description, owner: t.owner })),
    informationMessages,
    isRecordingRequired: true,
  });
}

function transportCreate(args, ctx) {
  const missing = missingArg(args, ['destination', 'objectName', 'objectType', 'developmentPackage', 'transportDescription']);
  if (missing) return errorResult(`${missing} is required`);
  const problem = lengthProblem(args);
  if (problem) return errorResult(problem);
  if (args.transportDescription.length > 60) return errorResult('transportDescription must have at most 60 characters');
  const pkg = args.developmentPackage.toUpperCase();
  if (!ctx.repo.packages.has(pkg)) return errorResult(`Package ${args.developmentPackage} does not exist`);
  if (pkg === LOCAL_PACKAGE) return errorResult('Package $TMP is local: objects in it cannot be recorded in a transport request');
  const objects = [{ name: args.objectName.toUpperCase(), type: args.objectType.toUpperCase() }];
  const tr = ctx.repo.createTransport({ description: args.transportDescription, owner: ctx.session.user, objects });
  return jsonResult(
    { transportRequestNumber: tr.number, message: `Transport request ${tr.number} created.` },
    { structured: undefined },
  );
}

export const transportTools = {
  'abap_transport-get': transportGet,
  'abap_transport-create': transportCreate,
  ...diffTools,
};
