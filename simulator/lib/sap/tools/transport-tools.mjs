// MCP transport tools: find the transports relevant for an object and create a new one.
// `abap_transport-get` refuses an object locked in a task of another client with a plain
// text that is NOT flagged `isError` (as SAP's refusal reaches adt-ls 1.1.2's tool); tool
// styles (control `setToolStyle`) add the incomplete structuredContent of such a refusal, or
// word a success as explanatory text next to the full structuredContent.
import { lockReport, ofClient } from '../model/cts-locks.mjs';
import { LOCAL_PACKAGE } from '../model/uris.mjs';
import { diffTools } from './diff-paging.mjs';
import { errorResult, jsonResult, missingArg } from './result.mjs';

const TRANSPORT_GET = 'abap_transport-get';

/** The tool's answer for `data` in the current style. */
function transportAnswer(ctx, data) {
  if (ctx.faults.styleOf(TRANSPORT_GET) !== 'explained') return jsonResult(data);
  const count = data.transportRequests.length;
  return { text: `Found ${count} transport request(s); recording is ${data.isRecordingRequired ? '' : 'not '}required.`, structuredContent: data };
}

/** The refusal for an object locked in a task of another client (not flagged isError). */
function foreignLockRefusal(ctx, name, task) {
  const answer = { text: `Object ${name} is locked in task ${task}, which is not specified for this client` };
  if (ctx.faults.styleOf(TRANSPORT_GET) === 'refusal-structured') answer.structuredContent = { isRecordingRequired: false };
  return answer;
}

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
    return transportAnswer(ctx, {
      transportRequests: [],
      informationMessages: ['Objects in the local package $TMP are not recorded in transport requests.'],
      isRecordingRequired: false,
    });
  }
  const obj = ctx.repo.get(args.objectName, args.objectType);
  const lock = obj ? lockReport(ctx.repo, obj, ctx.session.client) : undefined;
  if (lock?.foreignTask) return foreignLockRefusal(ctx, obj.name, lock.foreignTask);
  const locked = lock?.request ? [lock.request] : [];
  const own = [...ctx.repo.transports.values()].filter(
    (t) => t.status === 'modifiable' && t.owner === ctx.session.user && ofClient(t, ctx.session.client),
  );
  const candidates = locked.length > 0 ? locked : own;
  const informationMessages = locked.length > 0 ? [`${args.objectName} is already locked in ${locked[0].number}.`] : [];
  return transportAnswer(ctx, {
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
  [TRANSPORT_GET]: transportGet,
  'abap_transport-create': transportCreate,
  ...diffTools,
};
