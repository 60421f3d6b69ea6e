// Public entry of the adt-ls simulator package: install helpers (fake editor extension),
// configuration names, the wire-trace readers (the simulator's own, and adt-ls-native's for
// replay), the replay command and the in-process session starter.

export {
  installFakeExtension,
  installSimulator,
  simulatorBinPath,
  platformLayout,
  EDITOR_DIRS,
  DEFAULT_EXTENSION_VERSION,
} from './install.mjs';
export { buildTrustStore, createCaCertificate, CACERTS_PASSWORD } from './install/cacerts.mjs';
export {
  loadConfig,
  defaultConfig,
  ENV_KNOBS,
  ENV_SECTIONS,
  MODES,
  DEFAULT_VERSION,
  OLD_VERSION,
} from './config.mjs';
export { readTrace } from './trace.mjs';
export { parseTrace as parseWireTrace, readTraceFile as readWireTrace } from './replay/trace-file.mjs';
export { runReplay } from './replay/cli.mjs';
export { startSession } from './server.mjs';
export { USER_AGENT_ERROR, DESTINATION_SERVICE_ERROR } from './shell/gates.mjs';
export { FORWARDED_METHODS } from './native/index.mjs';
export { END_LINE_SENTINEL } from './native/features/formatting.mjs';
