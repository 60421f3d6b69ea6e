// SSE text helpers for the simulated endpoint: split the SDK's event stream into events, and
// write events back out with a chosen line ending, multi-line `data:` fields and the noise a
// real server may send before an answer (comments, a notification, `event:` lines, a ping).

/** Incremental parser for the SDK's own SSE output ("\n"-terminated lines, blank-line separated). */
export function createSseEventSplitter() {
  let buffered = '';
  return {
    /** Feeds text; returns the complete events seen so far as {comments[], event, data}. */
    push(text) {
      buffered += text;
      const events = [];
      let end = buffered.indexOf('\n\n');
      while (end !== -1) {
        events.push(parseBlock(buffered.slice(0, end)));
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\n\n');
      }
      return events;
    },
  };
}

function parseBlock(block) {
  const event = { comments: [], event: undefined, data: undefined };
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) event.comments.push(line.slice(1).trimStart());
    else if (line.startsWith('event:')) event.event = line.slice(6).trimStart();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length > 0) event.data = data.join('\n');
  return event;
}

/** Positions just after a ',' that is outside every JSON string: safe places for a newline. */
function structuralCommas(json) {
  const positions = [];
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = json[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',') positions.push(i + 1);
  }
  return positions;
}

/** Splits JSON text into up to `parts` pieces at structural commas (joining with "\n" keeps it valid JSON). */
export function splitJsonLines(json, parts = 3) {
  const commas = structuralCommas(json);
  if (commas.length === 0) return [json];
  const cuts = [];
  for (let k = 1; k < parts; k += 1) cuts.push(commas[Math.floor((commas.length * k) / parts)]);
  const pieces = [];
  let start = 0;
  for (const cut of [...new Set(cuts)]) {
    pieces.push(json.slice(start, cut));
    start = cut;
  }
  pieces.push(json.slice(start));
  return pieces.filter((p) => p.length > 0);
}

/** Serialises one event. `multiline` spreads the data over several `data:` lines (one without the space). */
export function formatEvent({ event, data, comments = [] }, eol, { multiline = false } = {}) {
  let out = '';
  for (const comment of comments) out += `: ${comment}${eol}`;
  if (event !== undefined) out += `event: ${event}${eol}`;
  if (data !== undefined) {
    const lines = multiline ? splitJsonLines(data) : data.split('\n');
    lines.forEach((line, i) => {
      out += i === 1 ? `data:${line}${eol}` : `data: ${line}${eol}`;
    });
  }
  return `${out}${eol}`;
}

/** The noise sent before an answer in sseNoise mode. Returns the text and the ping's id. */
export function noiseBefore(eol, pingId) {
  const notification = {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', logger: 'adt-ls', data: 'Processing MCP request' },
  };
  const ping = { jsonrpc: '2.0', id: pingId, method: 'ping' };
  return (
    `: adt-ls simulator heartbeat${eol}${eol}` +
    formatEvent({ event: 'message', data: JSON.stringify(notification), comments: ['a notification first'] }, eol) +
    `:${eol}` +
    formatEvent({ data: JSON.stringify(ping) }, eol) +
    formatEvent({ event: 'message', comments: ['an event without data is ignored'] }, eol)
  );
}

/** An event whose data is not JSON (nonJsonData mode). */
export function nonJsonEvent(eol) {
  return formatEvent({ event: 'message', data: 'adt-ls: this is not JSON {' }, eol);
}
