// The LSP side of a replay: reads the client's messages from the pipe, answers each request
// with the recorded result or error (re-addressed to the live id), sends the recorded server
// notifications where they were, and answers a request with no recorded answer with a
// JSON-RPC error that names it. `adtLs/mcp/startMCPServer` also starts the replay MCP server.

import { SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node.js';
import { createMatcher } from './matcher.mjs';

export const NO_ANSWER_CODE = -32603;
const START_MCP = 'adtLs/mcp/startMCPServer';

/** Serves one recorded session's LSP side on `socket`. */
export function serveLsp({ socket, session, report, startMcp, onClose }) {
  const matcher = createMatcher(session.lsp.exchanges);
  const reader = new SocketMessageReader(socket);
  const writer = new SocketMessageWriter(socket);
  const send = (message) => writer.write({ jsonrpc: '2.0', ...message }).catch(() => {});

  const answer = async (msg) => {
    const match = matcher.take(msg.method, msg.params);
    report.setUnused('lsp', matcher.unused());
    if (!match) {
      report.unanswered('lsp', msg.method, msg.params);
      await send({
        id: msg.id,
        error: { code: NO_ANSWER_CODE, message: `adt-ls-simulator replay: no recorded answer for ${msg.method}` },
      });
      return;
    }
    const { exchange, exact } = match;
    for (const note of exchange.before) await send(note);
    let outcome = exchange.answer;
    if (msg.method === START_MCP && 'result' in outcome) {
      const live = Array.isArray(msg.params) ? msg.params[0] : msg.params;
      const { port } = await startMcp({ port: live?.port, token: live?.token });
      outcome = { result: { ...outcome.result, port, token: live?.token } };
    }
    report.answered('lsp', msg.method, msg.params, exact);
    await send({ id: msg.id, ...outcome });
    for (const note of exchange.after ?? []) await send(note);
  };

  reader.listen((msg) => {
    if (typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null) {
      answer(msg).catch((error) => {
        // The MCP port could not be bound, for example: the client hears why at once.
        const message = `adt-ls-simulator replay: ${msg.method} failed: ${error?.message ?? error}`;
        process.stderr.write(`${message}\n`);
        send({ id: msg.id, error: { code: NO_ANSWER_CODE, message } });
      });
    }
    // Notifications from the client (`initialized`, `didOpen`, ...) and answers to server
    // requests need nothing back.
  });
  socket.on('close', () => onClose?.());
  report.setUnused('lsp', matcher.unused());
}
