// Java-style log lines for the logon module (written through ctx.log to stderr). Callers
// never pass passwords, tickets or tokens.

export function logonLog(ctx, level, text) {
  const stamp = new Date().toISOString().replace('T', ' ').replace('Z', '');
  ctx.log?.(`${stamp} ${level.padEnd(5)} [com.sap.adt.destinations.logon] ${text}`);
}
