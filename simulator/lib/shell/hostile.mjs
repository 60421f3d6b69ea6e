// Hostile-peer test hooks: what a runaway or compromised adt-ls can do to its client, written
// straight to the socket (vscode-jsonrpc would stringify, queue and pace it, hiding exactly
// the behaviour under test). Like the other `sim/` hooks they are not adt-ls methods.
//   sim/flood {method, params, depth, count, kind, statusFile}
//       writes `count` notifications (`kind: 'request'`: server requests with ids
//       `sim-flood-<n>`) as fast as the socket takes them, waiting for 'drain' as a JVM's
//       blocking write waits; then answers `{written}`. `depth` replaces the params with
//       arrays nested that deep. With `statusFile`, keeps `{written, done}` there (written at
//       every wait and at the end), so a test can see the writes block.
//   sim/deepResult {depth}           answers with arrays nested `depth` levels deep
//   sim/deepNotify {method, depth}   sends a notification whose params nest `depth` levels,
//                                    then answers null
//   sim/deepAsk {method, depth, timeoutMs}
//       sends a server request whose params nest `depth` levels and answers `{reply}` with the
//       client's response (or `{timedOut: true}` after `timeoutMs`, default 5000)
//   sim/stopReading {untilFile}      answers null, then reads nothing more from the client
//                                    until `untilFile` exists (checked every 20 ms)

import { existsSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';

const FRAMES_PER_WRITE = 64;

function frame(text) {
  return `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

function nested(depth) {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/**
 * @param {object} opts
 * @param {import('node:stream').Readable} opts.input   the client's stream to us
 * @param {import('node:stream').Writable} opts.output  our stream to the client
 * @returns {{admit(message: object): boolean}}  false: the message was a hostile hook's
 */
export function createHostile({ input, output }) {
  const asks = new Map();
  const write = (message) => output.write(frame(JSON.stringify(message)));
  const answer = (id, result) => write({ jsonrpc: '2.0', id, result });

  async function flood(id, { method = 'window/logMessage', params = {}, depth, count = 1000, kind = 'notification', statusFile } = {}) {
    const status = { written: 0, done: false };
    const report = () => statusFile && writeFileSync(statusFile, JSON.stringify(status));
    const body = depth ? nested(depth) : JSON.stringify(params);
    const name = JSON.stringify(method);
    const note = frame(`{"jsonrpc":"2.0","method":${name},"params":${body}}`);
    const request = (n) => frame(`{"jsonrpc":"2.0","id":"sim-flood-${n}","method":${name},"params":${body}}`);
    while (status.written < count) {
      const n = Math.min(FRAMES_PER_WRITE, count - status.written);
      let chunk = '';
      for (let k = 0; k < n; k++) chunk += kind === 'request' ? request(status.written + k) : note;
      const more = output.write(chunk);
      status.written += n;
      if (!more) {
        report();
        await once(output, 'drain');
      }
    }
    status.done = true;
    report();
    answer(id, { written: status.written });
  }

  function deepAsk(id, { method = 'sim/deep', depth = 1000, timeoutMs = 5000 } = {}) {
    const askId = `sim-deep-${id}`;
    const timer = setTimeout(() => {
      asks.delete(askId);
      answer(id, { timedOut: true });
    }, timeoutMs);
    asks.set(askId, (reply) => {
      clearTimeout(timer);
      answer(id, { reply });
    });
    output.write(frame(`{"jsonrpc":"2.0","id":"${askId}","method":${JSON.stringify(method)},"params":${nested(depth)}}`));
  }

  function stopReading(id, { untilFile } = {}) {
    answer(id, null);
    input.pause();
    const poll = setInterval(() => {
      if (untilFile && existsSync(untilFile)) {
        clearInterval(poll);
        input.resume();
      }
    }, 20);
  }

  const hooks = {
    'sim/flood': (id, params) => void flood(id, params),
    'sim/deepResult': (id, { depth = 1000 } = {}) => output.write(frame(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${nested(depth)}}`)),
    'sim/deepNotify': (id, { method = 'sim/deep', depth = 1000 } = {}) => {
      output.write(frame(`{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${nested(depth)}}`));
      answer(id, null);
    },
    'sim/deepAsk': deepAsk,
    'sim/stopReading': stopReading,
  };

  return {
    admit(message) {
      const hook = typeof message.method === 'string' && message.id !== undefined ? hooks[message.method] : undefined;
      if (hook) {
        const params = Array.isArray(message.params) ? message.params[0] : message.params;
        hook(message.id, params ?? {});
        return false;
      }
      if (message.method === undefined && typeof message.id === 'string' && message.id.startsWith('sim-flood-')) {
        return false;
      }
      if (message.method === undefined && asks.has(message.id)) {
        const done = asks.get(message.id);
        asks.delete(message.id);
        done({ result: message.result, error: message.error });
        return false;
      }
      return true;
    },
  };
}
