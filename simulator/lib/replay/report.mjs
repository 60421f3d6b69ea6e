// The replay report of one fake adt-ls process: what was answered from the trace (exactly or
// by method only), what had no recorded answer, what the trace held that nobody asked for.
// It is rewritten after every change (the client kills adt-ls on dispose, so there is no
// exit hook to rely on) and `adt-ls-simulator replay` merges the reports of all processes.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarize } from './matcher.mjs';

export function createReport({ trace, session, file, log = () => {} }) {
  const state = {
    trace,
    session,
    answered: 0,
    approximate: [],
    unanswered: [],
    unused: [],
    skippedServerRequests: [],
  };
  const save = () => {
    if (!file) return;
    try {
      writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
    } catch (error) {
      log(`adt-ls-simulator replay: cannot write the report ${file}: ${error.message}`);
    }
  };
  save();
  return {
    state,
    answered(channel, method, params, exact) {
      state.answered += 1;
      if (!exact) state.approximate.push({ channel, method, params: summarize(params) });
      save();
    },
    unanswered(channel, method, params) {
      state.unanswered.push({ channel, method, params: summarize(params) });
      log(`adt-ls-simulator replay: no recorded answer for ${channel} ${method} ${summarize(params)}`);
      save();
    },
    setUnused(channel, exchanges) {
      state.unused = state.unused.filter((u) => u.channel !== channel);
      state.unused.push(...exchanges.map((e) => ({ channel, method: e.method, params: summarize(e.params) })));
      save();
    },
    skipped(serverRequests) {
      state.skippedServerRequests = serverRequests.map((r) => r.method);
      save();
    },
  };
}

/** Merges every `session-<n>/report.json` under a replay state directory. */
export function collectReports(stateDir) {
  let names = [];
  try {
    names = readdirSync(stateDir).filter((n) => /^session-\d+$/.test(n));
  } catch {
    return [];
  }
  return names
    .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)))
    .flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(stateDir, name, 'report.json'), 'utf8'))];
      } catch {
        return [];
      }
    });
}
