// What the simulated MCP endpoint observed: every HTTP request (never the bearer token
// itself), the JSON-RPC messages inside, DELETEs, sessions and injected pings. Tests read
// this to prove headers, ids, "no replay" and ping answers.

const RECORDED_HEADERS = [
  'host',
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
  'origin',
  'user-agent',
];

function describeMessage(message) {
  if (!message || typeof message !== 'object') return { kind: 'invalid' };
  const hasId = message.id !== undefined && message.id !== null;
  if (typeof message.method === 'string') {
    if (hasId) return { kind: 'request', method: message.method, id: message.id };
    const note = { kind: 'notification', method: message.method };
    // Which request a cancellation names, and why (tests prove the client cancels the right one).
    if (message.method === 'notifications/cancelled') {
      note.requestId = message.params?.requestId;
      note.reason = message.params?.reason;
    }
    return note;
  }
  return { kind: 'response', id: message.id, isError: message.error !== undefined };
}

export function createStats() {
  const stats = {
    /** One entry per HTTP request: {seq, httpMethod, path, headers, authorization, rpc[], status}. */
    requests: [],
    /** One entry per DELETE: {sessionId, status}. */
    deletes: [],
    /** Session ids handed out, in order. */
    sessions: [],
    /** Server->client pings injected by sseNoise, and the ids the client answered. */
    pings: { sent: [], answered: [] },

    /** Starts recording an HTTP request; returns the entry so later steps can complete it. */
    recordRequest(req) {
      const headers = {};
      for (const name of RECORDED_HEADERS) {
        if (req.headers[name] !== undefined) headers[name] = req.headers[name];
      }
      const auth = req.headers.authorization;
      const entry = {
        seq: stats.requests.length + 1,
        httpMethod: req.method,
        path: req.url,
        headers,
        authorization: auth === undefined ? 'none' : /^bearer /i.test(auth) ? 'bearer' : 'other',
        rpc: [],
        status: undefined,
      };
      stats.requests.push(entry);
      return entry;
    },

    /** Adds the JSON-RPC message(s) of a POST body to its entry. */
    recordMessages(entry, body) {
      const messages = Array.isArray(body) ? body : [body];
      entry.rpc.push(...messages.map(describeMessage));
    },

    /** How many times a JSON-RPC message with this method (and id, when given) arrived. */
    count(method, id) {
      let n = 0;
      for (const entry of stats.requests) {
        for (const m of entry.rpc) {
          if (m.method === method && (id === undefined || m.id === id)) n += 1;
        }
      }
      return n;
    },

    /** The JSON-RPC methods received, in order (handy for asserting a whole exchange). */
    methods() {
      return stats.requests.flatMap((entry) => entry.rpc.map((m) => m.method ?? `response:${m.id}`));
    },

    reset() {
      stats.requests.length = 0;
      stats.deletes.length = 0;
      stats.sessions.length = 0;
      stats.pings.sent.length = 0;
      stats.pings.answered.length = 0;
    },
  };
  return stats;
}
