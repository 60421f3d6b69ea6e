// Cookie handling on the SAP side: parse the request's Cookie header and format the two
// session cookies (SAP_SESSIONID_<SID>_<client> and sap-usercontext).

/** Parses a Cookie header into a Map name -> value (first occurrence wins). */
export function parseCookieHeader(header) {
  const cookies = new Map();
  if (typeof header !== 'string') return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

export const sessionCookieName = (sid, client) => `SAP_SESSIONID_${sid}_${client}`;

/** The two Set-Cookie header values of a fresh session. */
export function sessionSetCookies({ sid, client, sessionId }) {
  return [
    `${sessionCookieName(sid, client)}=${sessionId}; path=/; HttpOnly`,
    `sap-usercontext=sap-client=${client}; path=/`,
  ];
}
