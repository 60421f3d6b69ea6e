// The control API of the simulated backend, in-process (`control`) and over HTTP
// (`POST /__control/<name>` with header `x-control-token`). It switches fault modes,
// expires sessions and exposes the request log for assertions.
import { Repository } from './model/repository.mjs';

const SESSION_MODES = new Set(['logged-off', 'silent-empty']);

export function createControl({ sessions, faults, requestLog, repoRef, ticketLog, clientCa, state }) {
  const control = {
    /** Expires every live session; 'logged-off' -> 401s, 'silent-empty' -> empty searches. */
    expireSessions({ mode = 'logged-off' } = {}) {
      if (!SESSION_MODES.has(mode)) throw new Error(`unknown session expiry mode ${mode}`);
      return { expired: sessions.expireAll(mode) };
    },
    /** The next `n` searches return [] (`mode: 'empty'`) or throw Internal error ('error'). */
    setCold(n, { mode = 'empty' } = {}) {
      faults.cold = { remaining: Math.max(0, Number(n) || 0), mode };
      return { ...faults.cold };
    },
    /**
     * The next call of `op` fails with `message` (tool ops: an isError result); with `after`,
     * that many calls succeed first (e.g. the readback of an operation, not its first call).
     */
    failNext(op, { message = 'Internal error', code, status, data, httpError = false, times = 1, after = 0 } = {}) {
      const queue = faults.failures.get(op) ?? [];
      for (let i = 0; i < times; i += 1) queue.push({ message, code, status, data, httpError, after: i === 0 ? after : 0 });
      faults.failures.set(op, queue);
      return { queued: queue.length };
    },
    /** The next `n` writes fail with 500 / 423 / invalid-lock errors in turn. */
    writeRace(n) {
      faults.writeRaceRemaining = Math.max(0, Number(n) || 0);
      return { remaining: faults.writeRaceRemaining };
    },
    /** Delays every call of `op` ('*' = all ops) by `ms`; 0 removes the delay. */
    setDelay(op, ms) {
      if (ms > 0) faults.delays.set(op, ms);
      else faults.delays.delete(op);
      return { op, ms };
    },
    /**
     * How `tool` words its next answers (undefined restores the default). `abap_transport-get`:
     * 'explained' (an explanatory plain text next to the full structuredContent) or
     * 'refusal-structured' (a refusal's plain text next to an incomplete structuredContent).
     */
    setToolStyle(tool, style) {
      if (style === undefined || style === null) faults.toolStyles.delete(tool);
      else faults.toolStyles.set(tool, style);
      return { tool, style: style ?? null };
    },
    /**
     * The next call of `op` waits at the backend until `release()`; `reached` resolves when it
     * arrives (in-process only: for tests that must hold an operation in flight).
     */
    pauseNext(op) {
      let arrive;
      let open;
      const reached = new Promise((resolve) => (arrive = resolve));
      const released = new Promise((resolve) => (open = resolve));
      const queue = faults.pauses.get(op) ?? [];
      queue.push({ arrive, open, released });
      faults.pauses.set(op, queue);
      return { reached, release: () => open() };
    },
    requests() {
      return requestLog.list();
    },
    clearRequests() {
      requestLog.clear();
      return true;
    },
    get lastTicketRequest() {
      return ticketLog.at(-1);
    },
    ticketRequests() {
      return ticketLog.map((t) => ({ ...t }));
    },
    sessions() {
      return sessions.list();
    },
    issueClientCert(cn) {
      return clientCa.issueClientCert(cn);
    },
    get repository() {
      return repoRef.current;
    },
    /** Restores the seeded repository and clears fault modes, logs and tool state. */
    reset() {
      repoRef.current = new Repository();
      faults.reset();
      requestLog.clear();
      ticketLog.length = 0;
      for (const map of Object.values(state)) map.clear();
      return true;
    },
  };
  return control;
}

const HTTP_NAMES = new Set([
  'expireSessions', 'setCold', 'failNext', 'writeRace', 'setDelay', 'setToolStyle', 'requests', 'clearRequests',
  'lastTicketRequest', 'ticketRequests', 'sessions', 'issueClientCert', 'reset',
]);

/** Runs a control call from HTTP: `body` is an argument array or a single argument. */
export function callControl(control, name, body) {
  if (!HTTP_NAMES.has(name)) return { found: false };
  if (name === 'lastTicketRequest') return { found: true, result: control.lastTicketRequest ?? null };
  let args = [];
  if (Array.isArray(body)) args = body;
  else if (body && Object.keys(body).length > 0) args = [body];
  return { found: true, result: control[name](...args) };
}
