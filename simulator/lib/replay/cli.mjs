// `adt-ls-simulator replay <trace> [--report <file>] [--json] [-- <command> [args...]]`.
// With a command: runs it with the fake adt-ls in replay mode (ADT_LS_PATH naming a fake
// editor install made for the run, so the bundled-JRE layout is there too, ADTLS_SIM_REPLAY
// and a fresh ADTLS_SIM_REPLAY_STATE), then reports, per adt-ls process, what was answered
// and every request the trace had no answer for; the exit status is the command's when it
// failed, else 1 when a request went unanswered, else 0. Without a command: checks the trace
// and prints what it holds and the variables to set for running a client by hand.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installFakeExtension } from '../install.mjs';
import { collectReports } from './report.mjs';
import { REPLAY_ENV, REPLAY_STATE_ENV } from './process.mjs';
import { readTraceFile } from './trace-file.mjs';

const FAKE_ADT_LS = fileURLToPath(new URL('../../bin/adt-ls.mjs', import.meta.url));

export const REPLAY_USAGE = 'adt-ls-simulator replay <trace.jsonl> [--report <file>] [--json] [-- <command> [args...]]';

function parseReplayArgs(args) {
  const dash = args.indexOf('--');
  const own = dash === -1 ? args : args.slice(0, dash);
  const command = dash === -1 ? [] : args.slice(dash + 1);
  const opts = { trace: undefined, report: undefined, json: false, command };
  for (let i = 0; i < own.length; i += 1) {
    if (own[i] === '--report') opts.report = own[++i];
    else if (own[i] === '--json') opts.json = true;
    else if (opts.trace === undefined) opts.trace = own[i];
    else throw new Error(`unexpected argument ${own[i]}\nUsage: ${REPLAY_USAGE}`);
  }
  if (!opts.trace) throw new Error(`a trace file is required\nUsage: ${REPLAY_USAGE}`);
  return opts;
}

function describeTrace(trace) {
  return trace.sessions.map((s, index) => ({
    session: index,
    recorded: s.header.ts,
    lspRequests: s.lsp.exchanges.length,
    mcpRequests: s.mcp.exchanges.length,
    methods: [...new Set([...s.lsp.exchanges, ...s.mcp.exchanges].map((e) => e.method))],
  }));
}

function printReports(reports, out) {
  for (const r of reports) {
    out(`session ${r.session}: ${r.answered} answered (${r.approximate.length} by method only), ${r.unanswered.length} unanswered, ${r.unused.length} recorded but not asked`);
    for (const u of r.unanswered) out(`  unanswered ${u.channel} ${u.method} ${u.params}`);
  }
}

function runCommand(command, env) {
  return new Promise((done) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
    child.on('error', (error) => {
      process.stderr.write(`adt-ls-simulator replay: cannot run ${command[0]}: ${error.message}\n`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** Runs the `replay` command; resolves the exit status. */
export async function runReplay(args, { out = (l) => process.stderr.write(`${l}\n`) } = {}) {
  const opts = parseReplayArgs(args);
  const tracePath = resolve(opts.trace);
  const trace = readTraceFile(tracePath);
  if (opts.command.length === 0) {
    const summary = { trace: tracePath, sessions: describeTrace(trace), env: { ADT_LS_PATH: FAKE_ADT_LS, [REPLAY_ENV]: tracePath } };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  }
  const stateDir = mkdtempSync(join(tmpdir(), 'adt-ls-replay-'));
  try {
    const { binPath } = installFakeExtension({ home: join(stateDir, 'home') });
    const env = { ...process.env, ADT_LS_PATH: binPath, [REPLAY_ENV]: tracePath, [REPLAY_STATE_ENV]: stateDir };
    const status = await runCommand(opts.command, env);
    const reports = collectReports(stateDir);
    const unanswered = reports.reduce((n, r) => n + r.unanswered.length, 0);
    const result = { trace: tracePath, commandStatus: status, unanswered, sessions: reports };
    if (opts.report) writeFileSync(opts.report, `${JSON.stringify(result, null, 2)}\n`);
    if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else printReports(reports, out);
    if (status !== 0) return status;
    if (unanswered > 0) {
      out(`adt-ls-simulator replay: ${unanswered} request(s) had no recorded answer`);
      return 1;
    }
    return 0;
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}
