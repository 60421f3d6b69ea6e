// MCP session table of the simulated endpoint (stateful mode): hands out Mcp-Session-Id
// values, counts the requests served per session and forgets a session once it "expires"
// (expireSessionAfter), so later requests with that id get 404.
import { randomUUID } from 'node:crypto';

export function createSessionTable(stats) {
  const sessions = new Map();
  return {
    open() {
      const id = randomUUID();
      sessions.set(id, { id, requests: 0 });
      stats.sessions.push(id);
      return id;
    },
    has(id) {
      return sessions.has(id);
    },
    /**
     * Accounts one JSON-RPC request on session `id`. Returns false (and forgets the session)
     * when `limit` requests were already served; a negative limit never expires.
     */
    admitRequest(id, limit) {
      const session = sessions.get(id);
      if (!session) return false;
      if (limit >= 0 && session.requests >= limit) {
        sessions.delete(id);
        return false;
      }
      session.requests += 1;
      return true;
    },
    close(id) {
      return sessions.delete(id);
    },
    clear() {
      sessions.clear();
    },
  };
}
