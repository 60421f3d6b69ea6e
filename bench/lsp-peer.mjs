#!/usr/bin/env node
// A minimal LSP peer for the hot-path benchmark: it does almost no work, so the client side
// dominates what is measured. Spawned like adt-ls (`[...extraArgs] -Djco.trace_path <dir>
// -data <dir> --pipe=<address>`), it CONNECTS to the client's Unix socket / named pipe and
// speaks raw Content-Length framing (no vscode-jsonrpc) so that its own cost stays small:
//   initialize   -> { capabilities: {}, serverInfo: { name: 'ADTLS', version: <supported> } }
//   shutdown     -> null;  `exit` notification (or the socket closing) ends the process
//   bench/large  -> a ~5 MB result (an array of objects, serialised once and reused)
//   anything else with an id -> its params echoed back as the result
// Hand-written rather than on vscode-jsonrpc on purpose: the peer must not be the bottleneck.

import { connect } from 'node:net';

export const LARGE_METHOD = 'bench/large';
export const PEER_VERSION = '1.1.2.202608131517';
const LARGE_BYTES = 5 * 1024 * 1024;

const pipe = process.argv.find((a) => a.startsWith('--pipe='))?.slice('--pipe='.length);
if (!pipe) {
  process.stderr.write('lsp-peer: missing --pipe=<address> argument\n');
  process.exit(2);
}

let largeJson;
/** The 5 MB result as JSON text, built on first use: [{ name, uri, type, description }, ...]. */
function largeResultJson() {
  if (largeJson) return largeJson;
  const items = [];
  let size = 2;
  for (let i = 0; size < LARGE_BYTES; i++) {
    const item = JSON.stringify({
      name: `ZCL_BENCH_OBJECT_${i}`,
      uri: `/sap/bc/adt/oo/classes/zcl_bench_object_${i}`,
      type: 'CLAS/OC',
      description: `Benchmark object number ${i} with a description of moderate length`,
    });
    items.push(item);
    size += item.length + 1;
  }
  largeJson = `[${items.join(',')}]`;
  return largeJson;
}

const socket = connect(pipe);
socket.setNoDelay?.(true);
socket.on('error', () => process.exit(0));
socket.on('close', () => process.exit(0));

/** One write per message (header and body together). */
const send = (body) => socket.write(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`);

const reply = (id, resultJson) => send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`);

function handle(msg) {
  if (msg.method === undefined) return; // a response to nothing we asked: ignore
  if (msg.id === undefined) {
    if (msg.method === 'exit') process.exit(0);
    return; // other notifications (initialized, $/..., didChangeConfiguration): ignore
  }
  switch (msg.method) {
    case 'initialize':
      return reply(msg.id, JSON.stringify({ capabilities: {}, serverInfo: { name: 'ADTLS', version: PEER_VERSION } }));
    case 'shutdown':
      return reply(msg.id, 'null');
    case LARGE_METHOD:
      return reply(msg.id, largeResultJson());
    default:
      return reply(msg.id, JSON.stringify(msg.params ?? null));
  }
}

// Framing: `Content-Length: n\r\n[other headers]\r\n\r\n<n bytes of UTF-8 JSON>`.
let buf = Buffer.alloc(0);
socket.on('data', (chunk) => {
  buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
  for (;;) {
    const headerEnd = buf.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const m = /content-length:\s*(\d+)/i.exec(buf.toString('latin1', 0, headerEnd));
    if (!m) {
      process.stderr.write('lsp-peer: header without Content-Length\n');
      process.exit(1);
    }
    const start = headerEnd + 4;
    const end = start + Number(m[1]);
    if (buf.length < end) return;
    const body = buf.toString('utf8', start, end);
    buf = buf.subarray(end);
    handle(JSON.parse(body));
  }
});
