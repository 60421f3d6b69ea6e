// The LSP transport of the simulated adt-ls: vscode-jsonrpc's socket reader/writer, tapped so
// that every incoming frame (raw header + parsed body) and every outgoing message lands in the
// wire trace, incoming messages pass a fault gate, and outgoing responses can be delayed.

import { Socket } from 'node:net';
import {
  SocketMessageReader,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node.js';
import { createFrameTap } from '../trace.mjs';

/**
 * @param {object} opts
 * @param {import('node:stream').Readable} opts.input   socket (or any readable) from the SDK
 * @param {import('node:stream').Writable} opts.output  socket (or any writable) to the SDK
 * @param {(ev: object) => void} opts.trace
 * @param {(msg: object) => boolean} [opts.admit]  false = swallow the message (fault fired)
 * @param {(msg: object) => number} [opts.delayFor] ms to hold an outgoing message
 * @returns {{reader, writer, startTap(): void}}
 */
export function createTappedTransport({ input, output, trace, admit = () => true, delayFor = () => 0 }) {
  const BaseReader = input instanceof Socket ? SocketMessageReader : StreamMessageReader;
  const BaseWriter = output instanceof Socket ? SocketMessageWriter : StreamMessageWriter;

  class GatedReader extends BaseReader {
    listen(callback) {
      return super.listen((message) => {
        if (admit(message) !== false) callback(message);
      });
    }
  }

  class TracedWriter extends BaseWriter {
    async write(message) {
      const delay = delayFor(message);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      trace({ dir: 'out', message });
      return super.write(message);
    }
  }

  const onFrame = (rawHeader, body) => {
    trace({ dir: 'in', rawHeader });
    if (body === undefined) return;
    try {
      trace({ dir: 'in', message: JSON.parse(body) });
    } catch {
      trace({ dir: 'in', unparsable: body });
    }
  };

  return {
    reader: new GatedReader(input),
    writer: new TracedWriter(output),
    // Attach the raw tap in the same tick as the reader starts, so no chunk is seen by one only.
    startTap() {
      if (trace.enabled !== false) input.on('data', createFrameTap(onFrame));
    },
  };
}
