// MCP ATC tools: runs produce worklists; results, the deterministic quickfix (removes
// unused variables) and the AI-fix job (running, then done) work on those worklists.
import { randomBytes } from 'node:crypto';
import { atcFindings, applyUnusedVariableFix } from '../model/atc-checks.mjs';
import { normaliseType } from '../model/object-types.mjs';
import { errorResult, jsonResult, missingArg } from './result.mjs';

function atcRun(args, ctx) {
  if (missingArg(args, ['destination'])) return errorResult('destination is required');
  if (!Array.isArray(args.objects) || args.objects.length === 0) return errorResult('objects must contain at least one object');
  const entries = [];
  for (const ref of args.objects) {
    const obj = ctx.repo.get(String(ref?.name ?? ''), normaliseType(ref?.type) ?? ref?.type);
    if (!obj) return errorResult(`Object ${ref?.name} (${ref?.type}) does not exist`);
    entries.push({ obj, findings: atcFindings(obj) });
  }
  const worklistId = randomBytes(16).toString('hex').toUpperCase();
  ctx.state.worklists.set(worklistId, { entries, variant: args.checkVariant ?? 'DEFAULT' });
  return jsonResult({ worklistId, destination: args.destination });
}

function worklistOf(args, ctx) {
  const missing = missingArg(args, ['worklistId', 'destination']);
  if (missing) return { error: errorResult(`${missing} is required`) };
  const worklist = ctx.state.worklists.get(args.worklistId);
  if (!worklist) return { error: errorResult(`Worklist ${args.worklistId} does not exist`) };
  return { worklist };
}

const findingView = (f) => ({
  priority: f.priority,
  checkClass: f.checkClass,
  checkTitle: f.checkTitle,
  messageId: f.messageId,
  messageTitle: f.messageTitle,
  aiQuickfixAvailable: true,
  deterministicQuickfixAvailable: true,
  tags: [],
});

function atcGetResult(args, ctx) {
  const { worklist, error } = worklistOf(args, ctx);
  if (error) return error;
  return jsonResult({
    objects: worklist.entries.map(({ obj, findings }) => ({
      name: obj.name,
      type: obj.type.split('/')[0],
      packageName: obj.packageName,
      findings: findings.map(findingView),
    })),
  });
}

function deterministicQuickfixes(args, ctx) {
  const { worklist, error } = worklistOf(args, ctx);
  if (error) return error;
  const affected = [];
  for (const entry of worklist.entries) {
    if (entry.findings.length === 0) continue;
    applyUnusedVariableFix(entry.obj, entry.findings);
    ctx.repo.markDraft(entry.obj, [...new Set(entry.findings.map((f) => f.part))], ctx.session.user);
    let state = 'inactive';
    if (args.activateAfterFix === true) {
      ctx.repo.activateObject(entry.obj);
      state = 'active';
    }
    entry.findings = entry.findings.filter((f) => f.messageId !== 'UNUSED_VARIABLE');
    affected.push({ name: entry.obj.name, type: entry.obj.type.split('/')[0], state });
  }
  return jsonResult({ messages: [], affectedObjects: affected });
}

function aiFixStatus(job) {
  return {
    status: job.status,
    processedFindings: job.status === 'done' ? job.total : 0,
    skippedFindings: 0,
    totalEligibleFindings: job.total,
    syntaxErrorCount: 0,
    ...(job.status === 'done' ? { appliedChangesByConfidenceScore: { high: job.total } } : {}),
    changedObjects: job.status === 'done' ? job.changed : [],
  };
}

function applyAiFix(args, ctx) {
  const { worklist, error } = worklistOf(args, ctx);
  if (error) return error;
  const changed = worklist.entries
    .filter((e) => e.findings.length > 0)
    .map((e) => ({ objectName: e.obj.name, objectType: e.obj.type.split('/')[0], state: 'inactive', findings: e.findings.map(findingView) }));
  const job = { status: 'running', total: changed.length === 0 ? 0 : changed.reduce((n, c) => n + c.findings.length, 0), changed };
  ctx.state.aiFixJobs.set(args.worklistId, job);
  return jsonResult(aiFixStatus(job));
}

function getAiFixResult(args, ctx) {
  const { error } = worklistOf(args, ctx);
  if (error) return error;
  const job = ctx.state.aiFixJobs.get(args.worklistId);
  if (!job) return errorResult(`No AI fix job was started for worklist ${args.worklistId}`);
  const view = aiFixStatus(job);
  job.status = 'done';
  return jsonResult(view.status === 'running' ? aiFixStatus(job) : view);
}

export const atcTools = {
  abap_atc_run: atcRun,
  abap_atc_get_result: atcGetResult,
  abap_atc_execute_deterministic_quickfixes: deterministicQuickfixes,
  abap_atc_apply_ai_fix: applyAiFix,
  abap_atc_get_ai_fix_result: getAiFixResult,
};
