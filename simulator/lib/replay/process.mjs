// The fake adt-ls in replay mode (`ADTLS_SIM_REPLAY=<trace>`): claims the next recorded
// session, connects to the client's pipe and serves that session's LSP and MCP answers.
// With `ADTLS_SIM_REPLAY_STATE=<dir>` (what `adt-ls-simulator replay` sets) each process takes
// the next session (an atomic mkdir of `session-<n>`) and writes its report there; without
// it, session `ADTLS_SIM_REPLAY_SESSION` (default 0) is served and the report goes to
// `ADTLS_SIM_REPLAY_REPORT` when set. Unanswered requests are also told on stderr.

import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parseAdtLsArgv } from '../shell/argv.mjs';
import { serveLsp } from './lsp.mjs';
import { startReplayMcp } from './mcp.mjs';
import { createReport } from './report.mjs';
import { readTraceFile } from './trace-file.mjs';

export const REPLAY_ENV = 'ADTLS_SIM_REPLAY';
export const REPLAY_STATE_ENV = 'ADTLS_SIM_REPLAY_STATE';
export const REPLAY_SESSION_ENV = 'ADTLS_SIM_REPLAY_SESSION';
export const REPLAY_REPORT_ENV = 'ADTLS_SIM_REPLAY_REPORT';

/** The index of the session this process serves, and where its report goes. */
export function claimSession(env, sessionCount) {
  const stateDir = env[REPLAY_STATE_ENV];
  if (!stateDir) {
    return { index: Number(env[REPLAY_SESSION_ENV] ?? 0), reportFile: env[REPLAY_REPORT_ENV] || undefined };
  }
  mkdirSync(stateDir, { recursive: true });
  for (let index = 0; ; index += 1) {
    try {
      mkdirSync(join(stateDir, `session-${index}`));
      return { index, reportFile: join(stateDir, `session-${index}`, 'report.json') };
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (index > sessionCount + 1000) throw new Error(`cannot claim a session in ${stateDir}`);
    }
  }
}

const stderr = (text) => process.stderr.write(`${text}\n`);

/** Entry of bin/adt-ls.mjs in replay mode. */
export async function replayMain(argv, env) {
  const tracePath = env[REPLAY_ENV];
  const trace = readTraceFile(tracePath);
  const { index, reportFile } = claimSession(env, trace.sessions.length);
  const report = createReport({ trace: tracePath, session: index, file: reportFile, log: stderr });
  const session = trace.sessions[index] ?? { lsp: { exchanges: [], serverRequests: [] }, mcp: { exchanges: [], serverRequests: [] } };
  if (!trace.sessions[index]) stderr(`adt-ls-simulator replay: the trace has no session ${index}; every request goes unanswered`);
  report.setUnused('mcp', session.mcp.exchanges);
  report.skipped([...session.lsp.serverRequests, ...session.mcp.serverRequests]);

  const { pipe } = parseAdtLsArgv(argv);
  if (!pipe) {
    stderr('adt-ls: missing --pipe=<address> argument');
    process.exit(1);
  }
  const socket = await new Promise((resolve, reject) => {
    const s = connect(pipe);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  }).catch((error) => {
    stderr(`java.net.ConnectException: cannot connect to ${pipe}: ${error.code ?? error.message}`);
    process.exit(1);
  });
  socket.on('error', () => {});
  let mcp;
  serveLsp({
    socket,
    session,
    report,
    startMcp: async ({ port, token }) => {
      mcp?.close();
      mcp = await startReplayMcp({ session, report, port, token });
      return mcp;
    },
    onClose: () => process.exit(0),
  });
}
