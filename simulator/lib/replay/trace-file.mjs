// Reads an adt-ls-native wire trace (JSONL, format `adt-ls-native-trace` version 1, see
// docs/tracing.md of adt-ls-native) into replayable sessions (in header order; lines are
// grouped by their `session` id, so interleaved sessions of one file come apart): per channel, the client's
// requests in order with the answers adt-ls gave, and the server's notifications placed
// before the answer they preceded. Server->client requests (logon prompts,
// `workspace/configuration`) are kept apart: their outcome is already in the recorded answers.

import { readFileSync } from 'node:fs';

export const TRACE_FORMAT = 'adt-ls-native-trace';
export const TRACE_VERSION = 1;

/** Parses the text of a trace file into `{sessions: [...]}`; throws on a malformed file. */
export function parseTrace(text) {
  const sessions = [];
  const byId = new Map();
  let current;
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1} is not JSON`);
    }
    if (entry.type === 'header') {
      if (entry.format !== TRACE_FORMAT) throw new Error(`line ${index + 1}: not an ${TRACE_FORMAT} header`);
      if (entry.version !== TRACE_VERSION) {
        throw new Error(`line ${index + 1}: trace format version ${entry.version} is not supported (expected ${TRACE_VERSION})`);
      }
      current = { header: entry, lines: [] };
      sessions.push(current);
      if (entry.session !== undefined) byId.set(entry.session, current);
      return;
    }
    if (!current) throw new Error(`line ${index + 1}: a message before the first header line`);
    // Several clients may append to one file at once: a line belongs to its session's header.
    const owner = entry.session !== undefined && byId.has(entry.session) ? byId.get(entry.session) : current;
    if (entry.type === 'message') owner.lines.push(entry);
  });
  if (sessions.length === 0) throw new Error('no header line: not an adt-ls-native trace');
  return { sessions: sessions.map(buildSession) };
}

/** Reads and parses a trace file. */
export function readTraceFile(path) {
  return parseTrace(readFileSync(path, 'utf8'));
}

const isRequest = (msg) => msg && typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null;
const isNotification = (msg) => msg && typeof msg.method === 'string' && (msg.id === undefined || msg.id === null);
const isResponse = (msg) => msg && msg.method === undefined && msg.id !== undefined;

function buildChannel(lines) {
  const exchanges = [];
  const open = new Map();
  const serverRequests = [];
  let waiting = [];
  let lastAnswered;
  for (const line of lines) {
    const { msg, dir, http } = line;
    if (dir === 'out' && isRequest(msg)) {
      const exchange = { method: msg.method, params: msg.params, id: msg.id, before: [], answer: undefined };
      exchanges.push(exchange);
      open.set(JSON.stringify(msg.id), exchange);
    } else if (dir === 'in' && isResponse(msg)) {
      const exchange = open.get(JSON.stringify(msg.id));
      if (!exchange) continue;
      open.delete(JSON.stringify(msg.id));
      exchange.answer = 'error' in msg ? { error: msg.error } : { result: msg.result };
      if (http?.sessionId) exchange.sessionId = http.sessionId;
      exchange.before.push(...waiting);
      waiting = [];
      lastAnswered = exchange;
    } else if (dir === 'in' && isNotification(msg)) {
      waiting.push({ method: msg.method, params: msg.params });
    } else if (dir === 'in' && isRequest(msg)) {
      serverRequests.push({ method: msg.method, params: msg.params });
    } else if (dir === 'in' && !msg && http?.status >= 300 && http.method !== 'DELETE') {
      // An MCP POST refused with a status: the oldest exchange still open got it.
      const exchange = [...open.values()][0];
      if (exchange) {
        exchange.answer = { status: http.status };
        open.delete(JSON.stringify(exchange.id));
      }
    }
  }
  if (waiting.length > 0 && lastAnswered) lastAnswered.after = waiting;
  return { exchanges: exchanges.filter((e) => e.answer !== undefined), serverRequests };
}

function buildSession({ header, lines }) {
  return {
    header,
    lsp: buildChannel(lines.filter((l) => l.ch === 'lsp')),
    mcp: buildChannel(lines.filter((l) => l.ch === 'mcp')),
  };
}
