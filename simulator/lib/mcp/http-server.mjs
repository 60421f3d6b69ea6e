// The simulated adt-ls MCP endpoint: a node:http server on 127.0.0.1 serving POST/DELETE
// /mcp. It enforces the bearer token and SAP's Host filter, keeps sessions, applies the
// request-level faults (401/500, hangs, expired sessions, initialized 404) and hands every
// other message to a fresh stateless SDK transport + Server whose answer response-writer
// shapes. Usable on its own (tests of MCP clients) or from the LSP handlers.
import http from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { defaultModes, faultApplies, mergeModes, SSE_FAULTS } from './modes.mjs';
import { toolsForMode } from './catalogue.mjs';
import { createStats } from './stats.mjs';
import { createSessionTable } from './sessions.mjs';
import { createMcpProtocolServer } from './mcp-protocol.mjs';
import { writeMcpResponse } from './response-writer.mjs';
import { echoToolHandler } from './tool-results.mjs';
import { newMcpToken, readBody, rpcErrorBody, send, tokenMatches } from './http-util.mjs';

const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Starts the endpoint.
 * @param {object} [opts]
 * @param {number} [opts.port=0]            0 picks a free port (the LSP layer forbids 0)
 * @param {string} [opts.token]             bearer token (default: 256 random bits)
 * @param {string} [opts.fileSystemMode]    'VFS' -> 20 tools, otherwise 15
 * @param {object[]} [opts.tools]           replaces the captured catalogue
 * @param {(name, args) => any} [opts.toolHandler]  default: echo {name, arguments} as JSON text
 * @param {object} [opts.modes]             mode knobs (see modes.mjs / README.md "MCP server")
 * @param {(line: string) => void} [opts.log]
 * @param {(event: object) => void} [opts.trace]
 * @returns {Promise<{port, url, token, stats, modes, setMode(partial), close()}>}
 */
export async function startMcpHttpServer(opts = {}) {
  let modes = mergeModes(defaultModes(), opts.modes);
  const token = opts.token ?? newMcpToken();
  const tools = opts.tools ?? toolsForMode(opts.fileSystemMode);
  const toolHandler = opts.toolHandler ?? echoToolHandler;
  const stats = createStats();
  const sessions = createSessionTable(stats);
  const pendingPings = new Set();
  const openResponses = new Set();
  let port = opts.port ?? 0;
  let pingCounter = 0;

  const hostAllowed = (host) => host === `localhost:${port}` || host === `127.0.0.1:${port}`;

  const registerPing = () => {
    pingCounter += 1;
    const id = `sim-ping-${pingCounter}`;
    pendingPings.add(id);
    stats.pings.sent.push(id);
    return id;
  };

  async function forwardToSdk(req, res, body, context) {
    const { method, requestIds, sessionId } = context;
    // Progress notifications need a stream: a call asking for progress is answered with SSE.
    const wantsProgress = body?.params?._meta?.progressToken !== undefined;
    const useSse =
      modes.response === 'sse' || wantsProgress || SSE_FAULTS.some((fault) => faultApplies(modes, fault, method));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !useSse,
    });
    const server = createMcpProtocolServer({ modes: () => modes, tools, toolHandler });
    res.once('close', () => server.close().catch(() => {}));
    await server.connect(transport);
    const headers = {};
    for (const name of FORWARDED_HEADERS) if (req.headers[name] !== undefined) headers[name] = req.headers[name];
    const webRequest = new Request(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers });
    const webResponse = await transport.handleRequest(webRequest, { parsedBody: body });
    await writeMcpResponse({
      webResponse,
      res,
      extraHeaders: sessionId ? { 'mcp-session-id': sessionId } : {},
      method,
      requestIds,
      modes,
      onPing: registerPing,
    });
  }

  function hang(res, sessionId) {
    if (modes.response !== 'sse') return; // JSON mode: no status line ever arrives
    res.writeHead(200, { 'content-type': 'text/event-stream', ...(sessionId ? { 'mcp-session-id': sessionId } : {}) });
    res.flushHeaders();
  }

  /** Session checks for a non-initialize POST. Returns the session id, or undefined after answering. */
  function checkSession(req, res, hasRequest) {
    const sessionId = req.headers['mcp-session-id'];
    if (!sessionId) {
      send(res, 400, rpcErrorBody(-32000, 'Bad Request: Mcp-Session-Id header is required'));
      return undefined;
    }
    const admitted = hasRequest ? sessions.admitRequest(sessionId, modes.expireSessionAfter) : sessions.has(sessionId);
    if (!admitted) {
      send(res, 404, rpcErrorBody(-32001, 'Session not found'));
      return undefined;
    }
    return sessionId;
  }

  async function handlePost(req, res, entry) {
    let body;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      send(res, 400, rpcErrorBody(-32700, 'Parse error: Invalid JSON'));
      return;
    }
    stats.recordMessages(entry, body);
    const messages = Array.isArray(body) ? body : [body];
    const method = messages.find((m) => typeof m?.method === 'string')?.method;
    const requestIds = messages.filter((m) => typeof m?.method === 'string' && m.id !== undefined).map((m) => m.id);
    const isInitialize = method === 'initialize';

    if (faultApplies(modes, 'status401', method)) {
      return send(res, 401, rpcErrorBody(-32001, 'Unauthorized'), { 'www-authenticate': 'Bearer' });
    }
    if (faultApplies(modes, 'status500', method))
      return send(res, 500, 'Internal Server Error: simulated adt-ls MCP failure');

    let sessionId;
    if (modes.session) {
      sessionId = isInitialize ? sessions.open() : checkSession(req, res, requestIds.length > 0);
      if (!sessionId) return undefined;
    }
    if (method === 'notifications/initialized' && modes.initialized404) {
      return send(res, 404, rpcErrorBody(-32001, 'Not Found'));
    }
    if (method === undefined) {
      // Only responses: the client answering our pings (or something we never asked).
      for (const m of messages) {
        if (pendingPings.delete(m?.id)) stats.pings.answered.push(m.id);
      }
      return send(res, 202, '', sessionId ? { 'mcp-session-id': sessionId } : {});
    }
    if (faultApplies(modes, 'hang', method)) return hang(res, sessionId);
    return forwardToSdk(req, res, body, { method, requestIds, sessionId });
  }

  function handleDelete(req, res) {
    const sessionId = req.headers['mcp-session-id'];
    let status = 405;
    if (modes.session) status = sessionId && sessions.close(sessionId) ? 204 : 404;
    stats.deletes.push({ sessionId, status });
    send(
      res,
      status,
      status === 405 ? rpcErrorBody(-32000, 'Method not allowed.') : '',
      status === 405 ? { allow: 'POST' } : {},
    );
  }

  async function handle(req, res) {
    const entry = stats.recordRequest(req);
    if (timing) traceTiming(req, res, entry);
    const writeHead = res.writeHead.bind(res);
    res.writeHead = (status, ...rest) => {
      entry.status = status;
      opts.trace?.({ channel: 'mcp-http', seq: entry.seq, httpMethod: entry.httpMethod, rpc: entry.rpc, status });
      return writeHead(status, ...rest);
    };
    openResponses.add(res);
    res.once('close', () => openResponses.delete(res));

    if (new URL(req.url, 'http://localhost').pathname !== '/mcp')
      return send(res, 404, rpcErrorBody(-32000, 'Not Found'));
    if (!hostAllowed(req.headers.host))
      return send(res, 403, rpcErrorBody(-32000, `Invalid Host header: ${req.headers.host}`));
    if (!tokenMatches(req.headers.authorization, token)) {
      if (req.method === 'POST') {
        const text = await readBody(req).catch(() => '');
        try {
          stats.recordMessages(entry, JSON.parse(text));
        } catch {
          // not JSON: nothing to record
        }
      } else req.resume();
      return send(res, 401, rpcErrorBody(-32001, 'Unauthorized'), { 'www-authenticate': 'Bearer' });
    }
    if (req.method === 'POST') return handlePost(req, res, entry);
    if (req.method === 'DELETE') return handleDelete(req, res);
    return send(res, 405, rpcErrorBody(-32000, 'Method not allowed.'), {
      allow: modes.session ? 'POST, DELETE' : 'POST',
    });
  }

  // Opt-in timing (only with a trace): per HTTP request, the server-side time from its
  // headers to the last byte handed to the socket, and which TCP connection carried it.
  const timing = opts.trace?.enabled === true;
  const connectionIds = new WeakMap();
  let connectionCount = 0;
  const traceTiming = (req, res, entry) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      opts.trace({
        event: 'mcp-timing',
        seq: entry.seq,
        httpMethod: entry.httpMethod,
        rpc: entry.rpc.map((m) => m.method ?? `response:${m.id}`),
        connection: connectionIds.get(req.socket),
        status: entry.status,
        us: Number(process.hrtime.bigint() - started) / 1000,
      });
    });
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      opts.log?.(`MCP endpoint error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, rpcErrorBody(-32603, 'Internal error'));
      else res.destroy();
    });
  });
  if (timing) {
    httpServer.on('connection', (socket) => {
      connectionCount += 1;
      connectionIds.set(socket, connectionCount);
    });
  }
  await listen(httpServer, port, '127.0.0.1');
  port = httpServer.address().port;

  let closing;
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    stats,
    get modes() {
      return { ...modes };
    },
    /** Changes mode knobs for the requests that follow. */
    setMode(partial) {
      modes = mergeModes(modes, partial);
    },
    /** Stops listening, drops open and hung streams, forgets every session. */
    close() {
      closing ??= new Promise((resolve) => {
        sessions.clear();
        for (const res of openResponses) res.destroy();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      return closing;
    },
  };
}
