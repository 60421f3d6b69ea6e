// Configuration of one simulated adt-ls process: defaults, an optional JSON file named by
// ADTLS_SIM_CONFIG, the ADTLS_SIM_* environment variables and the reference fixture's
// ADTLS_FIXTURE_MODE. Later sources win: defaults < file < presets (modes) < single knobs.
// Every knob is documented in simulator/README.md ("Configuration").

import { readFileSync } from 'node:fs';

export const DEFAULT_VERSION = '1.1.2.202608131517';
export const OLD_VERSION = '1.0.1.202606111342';
export const DEFAULT_EXIT_STDERR =
  'Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred. Program will exit.';
export const DEFAULT_CRASH_STDERR =
  '# A fatal error has been detected by the Java Runtime Environment:\n#  SIGSEGV (0xb) at pc=0x00007f3a2c1d4e10 (simulated crash)';
export const DEFAULT_INITIALIZE_ERROR = 'java.lang.IllegalStateException: simulated initialize failure';

/** Preset names accepted by ADTLS_SIM_MODE (comma separated) and ADTLS_FIXTURE_MODE. */
export const MODES = Object.freeze([
  'default',
  'exit',
  'never-connect',
  'hang',
  'hang-initialize',
  'old',
  'echo-pipe',
  'initialize-error',
  'crash',
  'drop',
  'slow',
  'quiet',
]);

/** Single knobs: env var name -> [config key, parser]. */
export const ENV_KNOBS = Object.freeze({
  ADTLS_SIM_VERSION: ['version', 'string'],
  ADTLS_SIM_SERVER_NAME: ['serverName', 'string'],
  ADTLS_SIM_EXIT_CODE: ['exitCode', 'int'],
  ADTLS_SIM_EXIT_STDERR: ['exitStderr', 'string'],
  ADTLS_SIM_NEVER_CONNECT: ['neverConnect', 'bool'],
  ADTLS_SIM_HANG_INITIALIZE: ['hangInitialize', 'bool'],
  ADTLS_SIM_INITIALIZE_ERROR: ['initializeError', 'string'],
  ADTLS_SIM_INITIALIZE_ERROR_CODE: ['initializeErrorCode', 'int'],
  ADTLS_SIM_ECHO_PIPE: ['echoPipe', 'bool'],
  ADTLS_SIM_CAPABILITIES_PATCH: ['capabilitiesPatch', 'json'],
  ADTLS_SIM_CRASH_AFTER: ['crashAfter', 'int'],
  ADTLS_SIM_CRASH_METHOD: ['crashMethod', 'string'],
  ADTLS_SIM_CRASH_CODE: ['crashCode', 'int'],
  ADTLS_SIM_CRASH_SIGNAL: ['crashSignal', 'string'],
  ADTLS_SIM_CRASH_STDERR: ['crashStderr', 'string'],
  ADTLS_SIM_DROP_AFTER: ['dropAfter', 'int'],
  ADTLS_SIM_DROP_METHOD: ['dropMethod', 'string'],
  ADTLS_SIM_DELAY_MS: ['delayMs', 'int'],
  ADTLS_SIM_DELAY_METHOD: ['delayMethod', 'string'],
  ADTLS_SIM_STARTUP_REQUESTS: ['startupRequests', 'bool'],
  ADTLS_SIM_NOISE: ['noise', 'bool'],
  ADTLS_SIM_QUIET: ['quiet', 'bool'],
  ADTLS_SIM_REFERENCES_HANG: ['referencesHang', 'list'],
  ADTLS_SIM_REFERENCES_ERROR: ['referencesError', 'list'],
  ADTLS_SIM_UNFILTERABLE_TYPES: ['unfilterableTypes', 'list'],
  ADTLS_SIM_LSP_RESULTS: ['lspResults', 'json'],
  ADTLS_SIM_TRACE: ['trace', 'string'],
  ADTLS_SIM_TRACE_REDACT: ['traceRedact', 'bool'],
});

/** Sections filled generically from ADTLS_SIM_<SECTION>_<KEY> (KEY becomes camelCase). */
export const ENV_SECTIONS = Object.freeze(['MCP', 'LOGON', 'BACKEND']);

export function defaultConfig() {
  return {
    version: DEFAULT_VERSION,
    serverName: 'ADTLS',
    exitBeforeConnect: false,
    exitCode: 2,
    exitStderr: '',
    neverConnect: false,
    hangInitialize: false,
    initializeError: undefined,
    initializeErrorCode: -32603,
    echoPipe: false,
    capabilitiesPatch: undefined,
    crashAfter: undefined,
    crashMethod: undefined,
    crashCode: 134,
    crashSignal: undefined,
    crashStderr: DEFAULT_CRASH_STDERR,
    dropAfter: undefined,
    dropMethod: undefined,
    delayMs: 0,
    delayMethod: undefined,
    startupRequests: true,
    noise: true,
    quiet: false,
    referencesHang: [],
    referencesError: [],
    unfilterableTypes: [],
    lspResults: undefined,
    trace: undefined,
    traceRedact: false,
    modes: [],
    mcp: {},
    logon: {},
    backend: {},
  };
}

/** Builds the configuration from an environment (process.env by default). */
export function loadConfig(env = process.env) {
  const config = defaultConfig();
  if (env.ADTLS_SIM_CONFIG) mergeFile(config, env.ADTLS_SIM_CONFIG);
  const modes = [
    ...splitList(env.ADTLS_FIXTURE_MODE),
    ...splitList(env.ADTLS_SIM_MODE),
    ...(Array.isArray(config.modes) ? config.modes : splitList(config.modes)),
  ];
  config.modes = [...new Set(modes)];
  for (const mode of config.modes) applyMode(config, mode);
  for (const [name, [key, kind]] of Object.entries(ENV_KNOBS)) {
    if (env[name] !== undefined && env[name] !== '') config[key] = parseValue(name, env[name], kind);
  }
  for (const section of ENV_SECTIONS) mergeSection(config, section, env);
  return config;
}

function mergeFile(config, file) {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`ADTLS_SIM_CONFIG: cannot read ${file}: ${error.message}`);
  }
  for (const [key, value] of Object.entries(parsed)) {
    if (['mcp', 'logon', 'backend'].includes(key)) Object.assign(config[key], value);
    else config[key] = value;
  }
}

/** Applies one preset; unknown names fail loudly so a typo never silently passes a test. */
export function applyMode(config, mode) {
  switch (mode) {
    case 'default':
      return;
    case 'exit':
      config.exitBeforeConnect = true;
      return;
    case 'never-connect':
      config.neverConnect = true;
      return;
    case 'hang':
    case 'hang-initialize':
      config.hangInitialize = true;
      return;
    case 'old':
      config.version = OLD_VERSION;
      return;
    case 'echo-pipe':
      config.echoPipe = true;
      return;
    case 'initialize-error':
      config.initializeError = config.initializeError ?? DEFAULT_INITIALIZE_ERROR;
      return;
    case 'crash':
      config.crashAfter = config.crashAfter ?? 0;
      return;
    case 'drop':
      config.dropAfter = config.dropAfter ?? 0;
      return;
    case 'slow':
      config.delayMs = config.delayMs || 1500;
      return;
    case 'quiet':
      config.quiet = true;
      config.noise = false;
      return;
    default:
      throw new Error(`Unknown simulator mode "${mode}". Known modes: ${MODES.join(', ')}`);
  }
}

function mergeSection(config, section, env) {
  const prefix = `ADTLS_SIM_${section}_`;
  const target = config[section.toLowerCase()];
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(prefix) || raw === undefined) continue;
    target[camelCase(name.slice(prefix.length))] = parseLoose(raw);
  }
}

function camelCase(snake) {
  return snake.toLowerCase().replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** Strings that look like booleans, numbers or JSON become those; anything else stays text. */
export function parseLoose(raw) {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (/^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

function parseValue(name, raw, kind) {
  switch (kind) {
    case 'int': {
      const n = Number(raw);
      if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${raw}"`);
      return n;
    }
    case 'bool':
      return !['0', 'false', 'no', 'off'].includes(raw.toLowerCase());
    case 'json':
      try {
        return JSON.parse(raw);
      } catch (error) {
        throw new Error(`${name} must be JSON: ${error.message}`);
      }
    case 'list':
      return splitList(raw);
    default:
      return raw;
  }
}

function splitList(value) {
  if (!value) return [];
  return String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Exit stderr text for the `exit` mode: an explicit text, else the JVM's own failure lines. */
export function exitStderrText(config) {
  return config.exitStderr || DEFAULT_EXIT_STDERR;
}
