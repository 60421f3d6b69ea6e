// MCP server mode knobs: their defaults, validation, the ADTLS_SIM_MCP_* environment
// variables that set them, and which JSON-RPC methods a fault applies to.

// kind: 'bool' | 'int' | 'enum' | 'string' | 'target' (true | method | method list | '*')
const KNOBS = {
  response: { kind: 'enum', values: ['sse', 'json'], default: 'sse' },
  session: { kind: 'bool', default: true },
  protocolVersion: { kind: 'string', default: '2025-06-18' },
  pageSize: { kind: 'int', default: 0 },
  loopCursor: { kind: 'bool', default: false },
  nullCursor: { kind: 'bool', default: false },
  invalidTools: { kind: 'enum', values: [false, true, 'missing', 'notArray', 'badEntry'], default: false },
  expireSessionAfter: { kind: 'int', default: -1 },
  status401: { kind: 'target', default: false, targets: ['tools/list', 'tools/call'] },
  status500: { kind: 'target', default: false, targets: ['tools/list', 'tools/call'] },
  hang: { kind: 'target', default: false, targets: ['tools/call'] },
  sseChunks: { kind: 'enum', values: [false, 'odd'], default: false },
  sseChunkDelayMs: { kind: 'int', default: 1 },
  sseLineEnding: { kind: 'enum', values: ['auto', 'lf', 'crlf', 'cr'], default: 'auto' },
  sseNoise: { kind: 'target', default: false, targets: ['tools/list', 'tools/call'] },
  sseKeepOpen: { kind: 'target', default: false, targets: ['*'] },
  sseEndWithoutAnswer: { kind: 'target', default: false, targets: ['tools/call'] },
  nonJsonData: { kind: 'target', default: false, targets: ['tools/call'] },
  mismatchedId: { kind: 'target', default: false, targets: ['tools/call'] },
  initialized404: { kind: 'bool', default: false },
  replaceToken: { kind: 'bool', default: false },
};

export const MODE_NAMES = Object.keys(KNOBS);

/** SSE-only faults: any of them being active forces SSE framing for the affected answer. */
export const SSE_FAULTS = ['sseNoise', 'sseKeepOpen', 'sseEndWithoutAnswer', 'nonJsonData'];

export function defaultModes() {
  const modes = {};
  for (const [name, knob] of Object.entries(KNOBS)) modes[name] = knob.default;
  return modes;
}

function checkTarget(name, value) {
  if (typeof value === 'boolean' || typeof value === 'string') return;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return;
  throw new TypeError(`MCP mode ${name} must be a boolean, a method name or a list of method names`);
}

function checkValue(name, value) {
  const knob = KNOBS[name];
  if (!knob) throw new TypeError(`Unknown MCP mode: ${name}`);
  switch (knob.kind) {
    case 'bool':
      if (typeof value !== 'boolean') throw new TypeError(`MCP mode ${name} must be a boolean`);
      return;
    case 'int':
      if (!Number.isInteger(value)) throw new TypeError(`MCP mode ${name} must be an integer`);
      return;
    case 'string':
      if (typeof value !== 'string') throw new TypeError(`MCP mode ${name} must be a string`);
      return;
    case 'enum':
      if (!knob.values.includes(value)) {
        throw new TypeError(`MCP mode ${name} must be one of ${knob.values.map(String).join(', ')}`);
      }
      return;
    default:
      checkTarget(name, value);
  }
}

/** Returns `base` merged with `partial`, after validating every key of `partial`. */
export function mergeModes(base, partial = {}) {
  for (const [name, value] of Object.entries(partial)) {
    if (value !== undefined) checkValue(name, value);
  }
  const merged = { ...base };
  for (const [name, value] of Object.entries(partial)) {
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

/** True when fault `name` is switched on for JSON-RPC `method`. */
export function faultApplies(modes, name, method) {
  const value = modes[name];
  if (!value) return false;
  let targets;
  if (value === true) targets = KNOBS[name].targets ?? ['*'];
  else if (typeof value === 'string') targets = value.split(',').map((s) => s.trim());
  else targets = value;
  return targets.includes('*') || targets.includes(method);
}

/** The SSE line ending to emit: odd chunking defaults to CRLF so there are pairs to split. */
export function lineEnding(modes) {
  const chosen = modes.sseLineEnding === 'auto' ? (modes.sseChunks ? 'crlf' : 'lf') : modes.sseLineEnding;
  return { lf: '\n', crlf: '\r\n', cr: '\r' }[chosen];
}

function envName(name) {
  return `ADTLS_SIM_MCP_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

const BOOL_WORDS = {
  1: true,
  true: true,
  yes: true,
  on: true,
  0: false,
  false: false,
  no: false,
  off: false,
  '': false,
};

function parseEnvValue(name, raw) {
  const knob = KNOBS[name];
  const text = raw.trim();
  const lower = text.toLowerCase();
  const asBool = BOOL_WORDS[lower];
  switch (knob.kind) {
    case 'bool':
      if (asBool === undefined) throw new TypeError(`${envName(name)} must be true or false`);
      return asBool;
    case 'int': {
      const n = Number(text);
      if (!Number.isInteger(n)) throw new TypeError(`${envName(name)} must be an integer`);
      return n;
    }
    case 'string':
      return text;
    case 'enum':
      if (asBool !== undefined && knob.values.includes(asBool)) return asBool;
      return text;
    default:
      if (asBool !== undefined) return asBool;
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
  }
}

/**
 * Reads every ADTLS_SIM_MCP_<UPPER_SNAKE_NAME> variable present in `env` into a partial
 * modes object (e.g. ADTLS_SIM_MCP_RESPONSE=json, ADTLS_SIM_MCP_EXPIRE_SESSION_AFTER=2,
 * ADTLS_SIM_MCP_HANG=tools/call). Throws on malformed values.
 */
export function readMcpConfigFromEnv(env = process.env) {
  const known = new Set(MODE_NAMES.map(envName));
  const unknown = Object.keys(env).filter((k) => k.startsWith('ADTLS_SIM_MCP_') && !known.has(k));
  if (unknown.length) throw new TypeError(`Unknown MCP mode variable(s): ${unknown.join(', ')}`);
  const partial = {};
  for (const name of MODE_NAMES) {
    const raw = env[envName(name)];
    if (raw !== undefined) partial[name] = parseEnvValue(name, raw);
  }
  return mergeModes({}, partial);
}

/**
 * Accepts loosely typed knobs, as a JSON config file or a generic ADTLS_SIM_MCP_* parser
 * yields them (strings, 1/0 for booleans), and converts them to the knob types. Returns
 * {modes, unknown[]}; malformed values throw.
 */
export function normalizeModes(raw = {}) {
  const modes = {};
  const unknown = [];
  for (const [name, value] of Object.entries(raw)) {
    const knob = KNOBS[name];
    if (!knob) unknown.push(name);
    else if (typeof value === 'string' || (typeof value === 'number' && knob.kind !== 'int')) {
      modes[name] = parseEnvValue(name, String(value));
    } else modes[name] = value;
  }
  return { modes: mergeModes({}, modes), unknown };
}

export { envName as mcpEnvName };
