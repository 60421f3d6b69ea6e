// adt-ls's requestLogonInput round trip, in the 1.0.1+ socket variant (sensitive fields
// arrive as JSON over a TCP connection to localhost) or the legacy variant
// (`{id, fields:[{key, value}]}`). Only redacted values and SHA-256 digests are recorded.
import { createHash } from 'node:crypto';
import net from 'node:net';

const METHOD = 'adtLs/destinations/requestLogonInput';
const SOCKET_GRACE_MS = 2000;

const digest = (value) => createHash('sha256').update(String(value)).digest('hex');

function redactedRecord(fields) {
  const sensitiveFields = {};
  const sensitiveDigests = {};
  for (const [key, value] of Object.entries(fields)) {
    sensitiveFields[key] = '<redacted>';
    sensitiveDigests[key] = digest(value);
  }
  return { sensitiveFields, sensitiveDigests };
}

function startSensitiveSocket() {
  let deliver;
  const received = new Promise((resolve) => {
    deliver = resolve;
  });
  const server = net.createServer((socket) => {
    const chunks = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => deliver(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', () => deliver(undefined));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, received, close: () => server.close() }));
  });
}

function parseObject(text) {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

async function socketVariant(ctx, dest, title) {
  const socket = await startSensitiveSocket();
  try {
    const reply = await ctx.connection.sendRequest(METHOD, {
      id: dest.id,
      title,
      sensitiveFieldsSocketPort: socket.port,
      params: [
        { name: 'client', label: 'Client', description: 'Client of the ABAP system', sensitive: false },
        { name: 'password', label: 'Password', description: `Password of ${dest.user ?? 'the user'}`, sensitive: true },
      ],
    });
    if (reply === null || reply === undefined) return { ok: false, message: 'Logon cancelled: requestLogonInput was answered with null' };
    const text = await Promise.race([socket.received, new Promise((r) => setTimeout(r, SOCKET_GRACE_MS, undefined).unref())]);
    const sensitive = parseObject(text ?? '') ?? {};
    const nonSensitive = reply.nonSensitiveFields ?? {};
    const record = { destinationId: dest.id, variant: 'socket', nonSensitiveFields: { ...nonSensitive }, ...redactedRecord(sensitive) };
    return { ok: true, client: nonSensitive.client, record };
  } finally {
    socket.close();
  }
}

async function legacyVariant(ctx, dest, title) {
  const reply = await ctx.connection.sendRequest(METHOD, {
    id: dest.id,
    title,
    params: [{ field: { key: 'client', label: 'Client' } }, { field: { key: 'password', label: 'Password', sensitive: true } }],
  });
  if (reply === null || reply === undefined) return { ok: false, message: 'Logon cancelled: requestLogonInput was answered with null' };
  const fields = Object.fromEntries((reply.fields ?? []).map((f) => [f.key, f.value]));
  const { password, ...plain } = fields;
  const record = {
    destinationId: dest.id,
    variant: 'legacy',
    nonSensitiveFields: plain,
    ...redactedRecord(password === undefined ? {} : { password }),
  };
  return { ok: true, client: plain.client, record };
}

/** Asks the client for logon input; resolves `{ok, client?, record?, message?}`. */
export async function requestLogonInput(ctx, dest, variant) {
  const title = `Logon to ${dest.id}`;
  const result = variant === 'legacy' ? await legacyVariant(ctx, dest, title) : await socketVariant(ctx, dest, title);
  if (result.record) {
    ctx.state.lastLogonInput = result.record;
    ctx.trace?.({ event: 'logonInput', ...result.record });
  }
  return result;
}
