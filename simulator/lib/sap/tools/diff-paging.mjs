// abap_transport-unifiedDifference: a transport's objects compared with their released
// versions, served in pages. The first `warmupPages` pages are empty "processing" pages
// (the comparison is still running, as observed live); then batches of `pageSize` objects
// follow until the last page is "completed". The cursor is opaque (base64 JSON).
import { randomBytes } from 'node:crypto';
import { typeInfo } from '../model/object-types.mjs';
import { unifiedDiff } from '../model/unified-diff.mjs';
import { errorResult, jsonResult, missingArg } from './result.mjs';

const encodeCursor = (state) => Buffer.from(JSON.stringify(state)).toString('base64');

function decodeCursor(cursor) {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (typeof state?.t === 'string' && Number.isInteger(state.p) && Number.isInteger(state.o)) return state;
  } catch {
    // fall through
  }
  return undefined;
}

function objectDiff(obj) {
  if (!obj?.releasedSources) return '';
  const current = obj.inactiveSources ?? obj.sources ?? {};
  const file = `${obj.name.toLowerCase()}.${typeInfo(obj.type).ext}.abap`;
  return unifiedDiff(obj.releasedSources.main, current.main, { oldName: `a/${file}`, newName: `b/${file}` });
}

function page(transport, state, pageSize, ctx) {
  const objects = transport.objects;
  const total = objects.length;
  const warmup = ctx.config.diffWarmupPages;
  const base = { totalObjects: total };
  if (state.p < warmup && total > 0) {
    return {
      batchInfo: { currentBatchSize: 0, ...base, processedCount: 0, remainingCount: total, batchHasChanges: false, status: 'processing' },
      nextCursor: encodeCursor({ t: transport.number, p: state.p + 1, o: 0, n: state.n }),
      diffResult: '',
      message: `Comparing ${total} object(s) of ${transport.number} with their previous versions...`,
    };
  }
  const batch = objects.slice(state.o, state.o + pageSize);
  const diff = batch.map((entry) => objectDiff(ctx.repo.get(entry.name, entry.type))).join('');
  const processed = state.o + batch.length;
  const remaining = total - processed;
  const done = remaining <= 0;
  const result = {
    batchInfo: {
      currentBatchSize: batch.length,
      ...base,
      processedCount: processed,
      remainingCount: Math.max(0, remaining),
      batchHasChanges: diff !== '',
      status: done ? 'completed' : 'processing',
    },
    diffResult: diff,
    message: done ? `Comparison of ${transport.number} completed.` : `Processed ${processed} of ${total} objects.`,
  };
  if (!done) result.nextCursor = encodeCursor({ t: transport.number, p: state.p + 1, o: processed, n: state.n });
  return result;
}

function unifiedDifference(args, ctx) {
  const missing = missingArg(args, ['destination', 'transportNumber']);
  if (missing) return errorResult(`${missing} must not be empty`);
  const pageSize = args.pageSize ?? 40;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 40) {
    return errorResult('pageSize must be an integer between 1 and 40');
  }
  const number = args.transportNumber.trim().toUpperCase();
  const transport = ctx.repo.transports.get(number);
  if (!transport) return errorResult(`Transport request ${number} does not exist`);
  let state = { t: number, p: 0, o: 0, n: randomBytes(6).toString('base64') };
  if (args.cursor !== undefined && args.cursor !== null && args.cursor !== '') {
    state = decodeCursor(String(args.cursor));
    if (!state || state.t !== number) return errorResult('Invalid cursor: it does not belong to this transport request');
  }
  return jsonResult(page(transport, state, pageSize, ctx));
}

export const diffTools = { 'abap_transport-unifiedDifference': unifiedDifference };
