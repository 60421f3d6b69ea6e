// The MCP side of a replay: a Streamable HTTP endpoint on 127.0.0.1 (the port the client
// asked for, or any free one) that checks the live bearer token and answers each JSON-RPC
// request with the recorded response (re-addressed to the live id; recorded notifications
// before it go first, as an event stream), notifications with 202 and DELETE with 200.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createMatcher } from './matcher.mjs';
import { NO_ANSWER_CODE } from './lsp.mjs';

const MAX_BODY = 4 * 1024 * 1024;

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server.address().port);
    });
  });
}

/** Starts the replay MCP server; resolves `{port, close()}`. */
export async function startReplayMcp({ session, report, port, token }) {
  const matcher = createMatcher(session.mcp.exchanges);
  let sessionId;
  const handle = async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    if (req.method === 'DELETE') {
      res.writeHead(200).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let msg;
    try {
      msg = JSON.parse(await readBody(req));
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (msg.id === undefined || msg.id === null) {
      res.writeHead(202).end();
      return;
    }
    const match = matcher.take(msg.method, msg.params);
    report.setUnused('mcp', matcher.unused());
    const headers = {};
    if (!match) {
      report.unanswered('mcp', msg.method, msg.params);
      const error = { code: NO_ANSWER_CODE, message: `adt-ls-simulator replay: no recorded answer for ${msg.method}` };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error }));
      return;
    }
    const { exchange, exact } = match;
    report.answered('mcp', msg.method, msg.params, exact);
    if (exchange.answer.status) {
      res.writeHead(exchange.answer.status).end();
      return;
    }
    if (msg.method === 'initialize') {
      sessionId = exchange.sessionId ?? sessionId ?? randomUUID();
      headers['mcp-session-id'] = sessionId;
    }
    const response = { jsonrpc: '2.0', id: msg.id, ...exchange.answer };
    if (exchange.before.length === 0) {
      res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(response));
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
    for (const note of exchange.before) res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...note })}\n\n`);
    res.end(`event: message\ndata: ${JSON.stringify(response)}\n\n`);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  let bound;
  try {
    bound = await listen(server, Number.isInteger(port) && port > 0 ? port : 0);
  } catch {
    bound = await listen(server, 0);
  }
  server.unref();
  report.setUnused('mcp', matcher.unused());
  return { port: bound, close: () => server.close() };
}
