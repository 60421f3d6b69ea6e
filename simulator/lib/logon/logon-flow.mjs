// ensureLoggedOn as adt-ls runs it: optional requestLogonInput, then the browser-based
// reentrance flow (local redirect listener + requestBrowserBasedLogon while the
// ensureLoggedOn request is still pending), the ticket exchange over HTTPS with the JVM's
// trust, logonStateChanged notifications, and the session registered on ctx. One attempt
// per destination at a time; every wait is bounded by the logon timeout (default 15 s).
import { createBackendClient } from '../backend-client.mjs';
import { loadJvmTrust } from '../jvm-trust.mjs';
import { logonInfo, requireDestination } from './destinations.mjs';
import { logonLog } from './log.mjs';
import { requestLogonInput } from './logon-input.mjs';
import { startRedirectListener } from './redirect-listener.mjs';
import { logonSettings } from './settings.mjs';

const BROWSER_LOGON = 'adtLs/destinations/requestBrowserBasedLogon';
const STATE_CHANGED = 'adtLs/destinations/logonStateChanged';

const attemptsByCtx = new WeakMap();
const trustByCtx = new WeakMap();

function attemptsOf(ctx) {
  if (!attemptsByCtx.has(ctx)) attemptsByCtx.set(ctx, new Map());
  return attemptsByCtx.get(ctx);
}

/** The JVM trust of this process, read once (as the JVM does at first TLS use). */
function trustFor(ctx) {
  if (!trustByCtx.has(ctx)) {
    const started = process.hrtime.bigint();
    trustByCtx.set(ctx, loadJvmTrust({ javaToolOptions: logonSettings(ctx).javaToolOptions }));
    // Opt-in timing (only with a trace): reading the truststore and keystore (node-forge).
    if (ctx.trace?.enabled) ctx.trace({ event: 'jvm-trust-timing', us: Number(process.hrtime.bigint() - started) / 1000 });
  }
  return trustByCtx.get(ctx);
}

function userAgentInfos(ctx) {
  const params = ctx.state.initializeParams;
  if (!params) return [{ name: 'adt-ls-simulator-in-process', version: '0' }];
  return params.initializationOptions?.userAgentInfos;
}

class FlowEnd extends Error {}

/**
 * The logonUrl adt-ls sends: the system's reentrance endpoint redirecting to our listener.
 * `origin` (fault mode `logon.urlOrigin`) replaces `https://<system host>`, as a misbehaving
 * or compromised adt-ls could (a foreign host, plain http).
 */
export function buildLogonUrl(systemUrl, listenerPort, origin) {
  const base = origin ? String(origin).replace(/\/+$/, '') : `https://${new URL(systemUrl).host}`;
  const redirect = encodeURIComponent(`http://localhost:${listenerPort}/adt/redirect`);
  return `${base}/sap/bc/adt/core/http/reentranceticket?redirect-url=${redirect}&_=${Date.now()}`;
}

function notify(ctx, dest, logonState) {
  ctx.connection.sendNotification(STATE_CHANGED, { destinationId: dest.id, logonState });
}

async function browserTicket(ctx, dest, race) {
  let openGate;
  const gate = new Promise((resolve) => {
    openGate = resolve;
  });
  let deliverTicket;
  const ticketArrived = new Promise((resolve) => {
    deliverTicket = resolve;
  });
  const progress = { withheld: 0 };
  const listener = await startRedirectListener({
    gate,
    onDelivery: () => {
      progress.withheld += 1;
      logonLog(ctx, 'INFO', `Reentrance ticket delivery for ${dest.id} received; answering it once the browser logon was confirmed`);
    },
    onTicket: (ticket) => deliverTicket(ticket),
  });
  try {
    const logonUrl = buildLogonUrl(dest.systemUrl, listener.port, logonSettings(ctx).urlOrigin);
    logonLog(ctx, 'INFO', `Requesting browser-based logon for ${dest.id} (listener 127.0.0.1:${listener.port})`);
    const reply = ctx.connection
      .sendRequest(BROWSER_LOGON, { id: dest.id, title: `Logon to ${dest.id}`, params: [{ field: { key: 'logonUrl', value: logonUrl } }] })
      .then((value) => ({ value }), (error) => ({ error }));
    reply.then((r) => {
      progress.withheld = 0;
      openGate(!r.error && r.value === true);
    });
    const refused = reply.then((r) => (r.error || r.value !== true ? r : new Promise(() => {})));
    const outcome = await race(Promise.race([ticketArrived.then((ticket) => ({ ticket })), refused.then((r) => ({ refused: r }))]), progress);
    if (outcome.refused?.error) throw new FlowEnd(`requestBrowserBasedLogon failed: ${outcome.refused.error.message}`);
    if (outcome.refused) {
      const answer = JSON.stringify(outcome.refused.value ?? null);
      throw new FlowEnd(`Logon to ${dest.id} was cancelled: requestBrowserBasedLogon was answered with ${answer}`);
    }
    return outcome.ticket;
  } finally {
    listener.close();
  }
}

async function runAttempt(ctx, dest, race) {
  if (dest.authenticationKind === 'basicAuth') throw new FlowEnd('The password must not be null or empty');
  if (dest.authenticationKind !== 'reentranceTicket') {
    throw new FlowEnd(`Authentication kind ${dest.authenticationKind} is not supported by the simulator`);
  }
  let client = dest.client;
  const inputVariant = logonSettings(ctx).input;
  if (inputVariant === 'socket' || inputVariant === 'legacy') {
    const input = await race(requestLogonInput(ctx, dest, inputVariant));
    if (!input.ok) throw new FlowEnd(input.message);
    if (input.client) client = String(input.client);
  }
  const ticket = await browserTicket(ctx, dest, race);
  notify(ctx, dest, 'pending');
  dest.logonState = 'pending';
  const backend = createBackendClient({
    systemUrl: dest.systemUrl,
    trust: trustFor(ctx),
    userAgentInfos: userAgentInfos(ctx),
    timeoutMs: logonSettings(ctx).backendTimeoutMs,
  });
  try {
    const { user } = await race(backend.logon(ticket, { client }));
    dest.user = user ?? dest.user;
  } catch (err) {
    if (err instanceof FlowEnd) throw err;
    throw new FlowEnd(err.message);
  }
  ctx.setBackend(dest.id, backend);
  dest.logonState = 'connected';
  dest.message = undefined;
  notify(ctx, dest, 'connected');
  logonLog(ctx, 'INFO', `Logon to ${dest.id} succeeded as ${dest.user} (client ${client})`);
  return logonInfo(dest);
}

function startAttempt(ctx, dest) {
  // Load the JVM trust and keystore (pure-JS PKCS#12, CPU-heavy under load) before the
  // attempt's clock starts, so a short logon timeout measures the logon, not the parse.
  trustFor(ctx);
  const { timeoutMs } = logonSettings(ctx);
  let stop;
  const stopped = new Promise((resolve) => {
    stop = resolve;
  });
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  const race = async (promise, progress) => {
    const result = await Promise.race([
      promise.then((value) => ({ value })),
      stopped.then((reason) => ({ end: reason })),
      timedOut.then(() => ({
        end:
          `No reentrance ticket received within ${timeoutMs} ms` +
          (progress?.withheld ? ' (a ticket delivery is still waiting for the reply to requestBrowserBasedLogon)' : ''),
      })),
    ]);
    if ('end' in result) throw new FlowEnd(result.end);
    return result.value;
  };
  logonLog(ctx, 'INFO', `Logon to ${dest.id} started (${dest.systemUrl}, client ${dest.client})`);
  const promise = runAttempt(ctx, dest, race)
    .catch((err) => {
      dest.logonState = 'disconnected';
      dest.message = err.message;
      notify(ctx, dest, 'disconnected');
      logonLog(ctx, 'WARN', `Logon to ${dest.id} failed: ${err.message}`);
      return logonInfo(dest);
    })
    .finally(() => {
      clearTimeout(timer);
      attemptsOf(ctx).delete(dest.id);
    });
  attemptsOf(ctx).set(dest.id, { promise, stop });
  return promise;
}

/** ensureLoggedOn: connected at once while the session lives, else a (shared) attempt. */
export async function ensureLoggedOn(ctx, id) {
  const dest = requireDestination(ctx, id);
  const running = attemptsOf(ctx).get(id);
  if (running) return running.promise;
  const existing = ctx.backend(id);
  if (existing && dest.logonState === 'connected' && (await existing.checkSession())) return logonInfo(dest);
  return startAttempt(ctx, dest);
}

/** Stops a running attempt; it resolves disconnected. */
export function stopLogonAttempt(ctx, id) {
  requireDestination(ctx, id);
  attemptsOf(ctx).get(id)?.stop(`Logon attempt for ${id} was stopped`);
  return null;
}
