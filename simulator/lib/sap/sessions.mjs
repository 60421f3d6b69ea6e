// Reentrance tickets and HTTP sessions of the simulated SAP system. Tickets are single-use
// and short-lived; a session is found only when BOTH cookies (SAP_SESSIONID_<SID>_<client>
// and sap-usercontext) are sent back.
import { randomBytes } from 'node:crypto';
import { parseCookieHeader, sessionCookieName } from './cookies.mjs';

const randomId = (bytes) => randomBytes(bytes).toString('base64url');

export function createSessionStore({ sid, ticketTtlMs }) {
  const tickets = new Map();
  const sessions = new Map();

  return {
    /** Issues a single-use ticket for `user` in `client`. */
    issueTicket(user, client) {
      const ticket = randomId(24);
      tickets.set(ticket, { user, client, expiresAt: Date.now() + ticketTtlMs });
      return ticket;
    },

    /** Consumes a ticket: `{user, client}` or `{error}`. */
    redeemTicket(ticket) {
      const entry = typeof ticket === 'string' ? tickets.get(ticket) : undefined;
      if (!entry) return { error: 'Logon failed: reentrance ticket is invalid or was already used' };
      tickets.delete(ticket);
      if (Date.now() > entry.expiresAt) return { error: 'Logon failed: reentrance ticket expired' };
      return { user: entry.user, client: entry.client };
    },

    createSession(user, client) {
      const session = {
        id: randomId(32),
        user,
        client,
        createdAt: Date.now(),
        state: 'active',
        readObjects: new Set(),
        // Source versions (model/versions.mjs): objects this session toggled to their active
        // version, and files it reloaded from SAP since (served with CRLF line ends).
        pinnedActive: new Set(),
        reloadedFiles: new Set(),
      };
      sessions.set(session.id, session);
      return session;
    },

    /** Finds the session of a request: `{session}` or `{error}` naming the missing part. */
    fromRequest(req) {
      const cookies = parseCookieHeader(req.headers.cookie);
      const context = cookies.get('sap-usercontext');
      const match = /^sap-client=(\d{3})$/.exec(context ?? '');
      if (!match) return { error: 'Not logged on: cookie sap-usercontext is missing' };
      const client = match[1];
      const id = cookies.get(sessionCookieName(sid, client));
      if (!id) return { error: `Not logged on: cookie ${sessionCookieName(sid, client)} is missing` };
      const session = sessions.get(id);
      if (!session || session.client !== client) return { error: 'Not logged on: session unknown' };
      return { session };
    },

    /** Marks every current session as expired: 'logged-off' or 'silent-empty'. */
    expireAll(mode) {
      let count = 0;
      for (const session of sessions.values()) {
        if (session.state === 'active') {
          session.state = mode;
          count += 1;
        }
      }
      return count;
    },

    list() {
      return [...sessions.values()].map(({ id: _id, readObjects: _r, pinnedActive: _p, reloadedFiles: _f, ...rest }) => rest);
    },
  };
}
