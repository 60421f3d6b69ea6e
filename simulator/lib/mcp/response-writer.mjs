// Writes the SDK transport's web `Response` to the node:http response, applying the
// answer-shaping faults: mismatched ids, SSE noise and pings, non-JSON data, a stream that
// ends without the answer, a stream kept open after it, odd chunking and line endings.
import { faultApplies, lineEnding } from './modes.mjs';
import { createPacedWriter } from './chunker.mjs';
import { createSseEventSplitter, formatEvent, noiseBefore, nonJsonEvent } from './sse.mjs';

const MISMATCHED_ID = 'mismatched';

function isAnswerTo(message, requestIds) {
  return message && typeof message === 'object' && message.method === undefined && requestIds.includes(message.id);
}

function withMismatchedId(message) {
  return { ...message, id: MISMATCHED_ID };
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function copyHeaders(webResponse, extraHeaders) {
  const headers = {};
  webResponse.headers.forEach((value, name) => {
    if (name !== 'content-length') headers[name] = value;
  });
  return { ...headers, ...extraHeaders };
}

async function writeJsonBody({ webResponse, res, headers, method, modes }) {
  let text = await webResponse.text();
  const message = parseJson(text);
  if (faultApplies(modes, 'mismatchedId', method) && message && !Array.isArray(message) && message.id !== undefined) {
    text = JSON.stringify(withMismatchedId(message));
  }
  const body = Buffer.from(text);
  res.writeHead(webResponse.status, { ...headers, 'content-length': body.length });
  res.end(body);
}

/** Transforms one SDK event into the text we send for it. */
function shapeEvent(sdkEvent, state) {
  const { modes, method, requestIds, eol, onPing } = state;
  if (sdkEvent.data === undefined) return formatEvent(sdkEvent, eol);
  const message = parseJson(sdkEvent.data);
  if (!isAnswerTo(message, requestIds)) return formatEvent(sdkEvent, eol);
  let out = '';
  const noisy = faultApplies(modes, 'sseNoise', method);
  if (noisy && !state.noiseSent) {
    state.noiseSent = true;
    out += noiseBefore(eol, onPing());
  }
  if (faultApplies(modes, 'nonJsonData', method)) out += nonJsonEvent(eol);
  if (faultApplies(modes, 'sseEndWithoutAnswer', method)) {
    state.endNow = true;
    return out;
  }
  const answer = faultApplies(modes, 'mismatchedId', method) ? withMismatchedId(message) : message;
  return out + formatEvent({ event: sdkEvent.event, data: JSON.stringify(answer) }, eol, { multiline: noisy });
}

async function writeSseBody({ webResponse, res, headers, method, modes, requestIds, onPing, keepOpen }) {
  res.writeHead(webResponse.status, headers);
  res.flushHeaders();
  const writer = createPacedWriter(res, { odd: modes.sseChunks === 'odd', delayMs: modes.sseChunkDelayMs });
  const splitter = createSseEventSplitter();
  const state = { modes, method, requestIds, eol: lineEnding(modes), onPing, noiseSent: false, endNow: false };
  const reader = webResponse.body.getReader();
  const decoder = new TextDecoder();
  res.once('close', () => reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true }));
    if (done) break;
    for (const sdkEvent of splitter.push(decoder.decode(value, { stream: true }))) {
      const text = shapeEvent(sdkEvent, state);
      if (text) writer.write(text);
      if (state.endNow) break;
    }
    if (state.endNow) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  await writer.drained();
  if (!keepOpen || state.endNow) res.end();
}

/**
 * @param {object} o
 * @param {Response} o.webResponse     what the SDK transport answered
 * @param {import('node:http').ServerResponse} o.res
 * @param {object} o.extraHeaders      e.g. {'mcp-session-id': id}
 * @param {string|undefined} o.method  JSON-RPC method of the (single) request
 * @param {Array} o.requestIds         ids of the requests in the POST
 * @param {object} o.modes
 * @param {() => string} o.onPing      registers an injected ping and returns its id
 */
export async function writeMcpResponse({ webResponse, res, extraHeaders = {}, method, requestIds, modes, onPing }) {
  const headers = copyHeaders(webResponse, extraHeaders);
  const type = (webResponse.headers.get('content-type') ?? '').split(';')[0].trim();
  if (type === 'text/event-stream' && webResponse.body) {
    const keepOpen = faultApplies(modes, 'sseKeepOpen', method);
    await writeSseBody({ webResponse, res, headers, method, modes, requestIds, onPing, keepOpen });
    return;
  }
  if (webResponse.body) {
    await writeJsonBody({ webResponse, res, headers, method, modes });
    return;
  }
  res.writeHead(webResponse.status, headers);
  res.end();
}
