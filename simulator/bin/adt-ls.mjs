#!/usr/bin/env node
// The fake adt-ls executable: `adt-ls [...extraArgs] -Djco.trace_path <dir> -data <dir> --pipe=<address>`.
// Behaviour and fault modes are configured through ADTLS_SIM_* variables (see README.md);
// ADTLS_SIM_REPLAY=<trace file> serves a recorded adt-ls-native wire trace instead.
const entry = process.env.ADTLS_SIM_REPLAY
  ? import('../lib/replay/process.mjs').then((m) => m.replayMain(process.argv.slice(2), process.env))
  : import('../lib/server.mjs').then((m) => m.main(process.argv.slice(2), process.env));

entry.catch((error) => {
  process.stderr.write(`adt-ls simulator: ${error?.stack ?? error}\n`);
  process.exit(1);
});
