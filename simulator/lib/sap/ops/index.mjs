// The operation dispatcher: `op` is an adt-ls LSP method name (native ops) or
// `tool:<name>` (MCP tool semantics). Applies fault modes first (delay, pause, queued failure,
// write race, dead-session writes), then runs the handler.
import { setTimeout as sleep } from 'node:timers/promises';
import { SapError } from '../errors.mjs';
import { toolHandlers } from '../tools/index.mjs';
import { activationOps } from './activation-ops.mjs';
import { creationOps } from './creation-ops.mjs';
import { directoryOps } from './directory-ops.mjs';
import { ctsOps } from './cts-ops.mjs';
import { fileOps } from './file-ops.mjs';
import { qualityOps } from './quality-ops.mjs';
import { repositoryOps } from './repository-ops.mjs';
import { serviceOps } from './service-ops.mjs';
import { versionOps } from './version-ops.mjs';

export const NATIVE_OPS = {
  ...repositoryOps,
  ...fileOps,
  ...activationOps,
  ...creationOps,
  ...ctsOps,
  ...qualityOps,
  ...serviceOps,
  ...versionOps,
  ...directoryOps,
};

const WRITE_OPS = new Set([
  'adtLs/fileSystem/writeFile',
  'adtLs/activation/activate',
  'adtLs/fileSystem/delete',
]);

function failureFor(op, failure) {
  if (op.startsWith('tool:') && !failure.httpError) return { text: failure.message, isError: true };
  throw new SapError(failure.message, { status: failure.status ?? 500, code: failure.code, data: failure.data });
}

/** Returns `dispatch(op, payload, {session, origin}) -> Promise<result>`. */
export function createOpDispatcher({ repoRef, faults, config, state }) {
  return async function dispatch(op, payload, { session, origin }) {
    const delay = faults.delayFor(op);
    if (delay > 0) await sleep(delay);
    const pause = faults.takePause(op);
    if (pause) {
      pause.arrive();
      await pause.released;
    }
    const failure = faults.takeFailure(op);
    if (failure) return failureFor(op, failure);
    if (WRITE_OPS.has(op)) {
      const race = faults.takeWriteRace();
      if (race) throw race;
      if (session.state === 'silent-empty') {
        throw new SapError('HTTP 500: stateful session terminated (context id no longer valid)', { status: 500 });
      }
    }
    const ctx = { repo: repoRef.current, faults, config, state, session, origin };
    if (op.startsWith('tool:')) {
      const handler = toolHandlers[op.slice('tool:'.length)];
      if (!handler) throw new SapError(`Tool ${op.slice(5)} not found`, { status: 404, code: -32602 });
      return handler(payload ?? {}, ctx);
    }
    const handler = NATIVE_OPS[op];
    if (!handler) throw new SapError(`Unhandled method ${op}`, { status: 404, code: -32601 });
    return handler(payload, ctx);
  };
}
