// The simulated adt-ls process: reads the configuration, prints JVM-like startup lines,
// connects AS A CLIENT to the SDK's Unix socket / named pipe (`--pipe=`) and serves LSP until
// the socket closes (exit 0). Fault modes can end it earlier or keep it alive without a peer.
// `startSession` wires one LSP session on any stream pair, so tests can also run it in-process.

import { writeSync } from 'node:fs';
import { connect } from 'node:net';
import { createMessageConnection } from 'vscode-jsonrpc/node.js';
import { exitStderrText, loadConfig } from './config.mjs';
import { createContext } from './context.mjs';
import { registerNative } from './native/index.mjs';
import { parseAdtLsArgv } from './shell/argv.mjs';
import { createDispatcher } from './shell/dispatch.mjs';
import { createFaults } from './shell/faults.mjs';
import { createHostile } from './shell/hostile.mjs';
import { gatedConnection } from './shell/gates.mjs';
import { registerLifecycle } from './shell/lifecycle.mjs';
import { loadOptionalRegistrars } from './shell/modules.mjs';
import { registerTestHooks } from './shell/test-hooks.mjs';
import { createTappedTransport } from './shell/transport.mjs';
import { openTrace } from './trace.mjs';

/** Writes one line to stderr synchronously (survives an immediate process.exit). */
export function stderrLine(text) {
  const line = String(text);
  try {
    writeSync(2, line.endsWith('\n') ? line : `${line}\n`);
  } catch {
    // stderr closed: nothing left to tell.
  }
}

/** Keeps the event loop alive for modes that wait to be killed. */
function stayAlive() {
  setInterval(() => {}, 2 ** 30);
}

/**
 * Starts one LSP session on a stream pair and resolves once it is listening.
 * @returns {Promise<{ctx, connection, dispose(): void}>}
 */
export async function startSession({
  input,
  output = input,
  config,
  log = stderrLine,
  trace = openTrace(undefined),
  pipe,
  exit = (code) => process.exit(code),
  onSocketClosed = () => {},
  registrars,
}) {
  const optional = registrars ?? (await loadOptionalRegistrars());
  let dropped = false;
  const faults = createFaults({
    config,
    trace,
    exit,
    dropSocket: () => {
      dropped = true;
      input.destroy?.();
      if (output !== input) output.destroy?.();
    },
  });
  const hostile = createHostile({ input, output });
  const admit = (message) => hostile.admit(message) && faults.admit(message);
  const transport = createTappedTransport({ input, output, trace, admit, delayFor: faults.delayFor });
  const connection = createMessageConnection(transport.reader, transport.writer);
  const ctx = createContext({ config, connection, log, trace });
  ctx.connection = gatedConnection(connection, ctx);
  ctx.onRequest = createDispatcher(connection, ctx).register;

  registerLifecycle(ctx, { pipe, exit });
  registerNative(ctx);
  registerTestHooks(ctx);
  for (const { register } of optional) await register(ctx);

  connection.onError(() => {});
  connection.onClose(() => {
    trace({ event: 'socket-closed', dropped });
    if (!dropped) onSocketClosed();
  });
  transport.startTap();
  connection.listen();
  return { ctx, connection, dispose: () => connection.dispose() };
}

function connectTo(pipe) {
  return new Promise((resolve, reject) => {
    const socket = connect(pipe);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** The process entry point used by bin/adt-ls.mjs. */
export async function main(argv = process.argv.slice(2), env = process.env) {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    stderrLine(`adt-ls simulator: ${error.message}`);
    process.exit(1);
  }
  const trace = openTrace(config.trace, { redact: config.traceRedact });
  const log = config.quiet ? () => {} : stderrLine;
  // Like an exception in a JVM worker thread: logged, never fatal to the server.
  process.on('unhandledRejection', (reason) => {
    stderrLine(`SEVERE: unhandled error: ${reason?.message ?? reason}`);
    trace({ event: 'unhandled-error', message: String(reason?.message ?? reason) });
  });
  // The JVM prints this whenever the variable is set, before anything else.
  if (env.JAVA_TOOL_OPTIONS) stderrLine(`Picked up JAVA_TOOL_OPTIONS: ${env.JAVA_TOOL_OPTIONS}`);
  trace({ event: 'start', pid: process.pid, uptimeMs: Math.round(process.uptime() * 1000), argv, version: config.version, modes: config.modes });

  if (config.exitBeforeConnect) {
    stderrLine(exitStderrText(config));
    trace({ event: 'exit', code: config.exitCode });
    process.exit(config.exitCode);
  }

  const args = parseAdtLsArgv(argv);
  log(`${config.serverName} ${config.version} (adt-ls simulator) starting, pid ${process.pid}`);
  if (!args.pipe) {
    stderrLine('adt-ls: missing --pipe=<address> argument');
    process.exit(1);
  }
  if (config.neverConnect) {
    log('adt-ls simulator: never-connect mode, waiting to be killed');
    trace({ event: 'never-connect' });
    stayAlive();
    return;
  }

  const registrars = await loadOptionalRegistrars();
  let socket;
  try {
    socket = await connectTo(args.pipe);
  } catch (error) {
    stderrLine(`java.net.ConnectException: cannot connect to ${args.pipe}: ${error.code ?? error.message}`);
    trace({ event: 'connect-failed', code: error.code });
    process.exit(1);
  }
  log(`Connected to language client on ${args.pipe}`);
  trace({ event: 'connected', pipe: args.pipe, dataDir: args.dataDir });
  socket.on('error', () => {});

  const exit = (code) => {
    trace.close();
    process.exit(code);
  };
  await startSession({
    input: socket,
    config,
    log,
    trace,
    pipe: args.pipe,
    exit,
    registrars,
    onSocketClosed: () => {
      log('Language client disconnected, shutting down');
      exit(0);
    },
  });
  // A dropped socket leaves the process running until it is killed, like a wedged JVM.
  stayAlive();
}
