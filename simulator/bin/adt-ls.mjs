#!/usr/bin/env node
// The fake adt-ls executable: `adt-ls [...extraArgs] -Djco.trace_path <dir> -data <dir> --pipe=<address>`.
// Behaviour and fault modes are configured through ADTLS_SIM_* variables (see README.md).
import { main } from '../lib/server.mjs';

main(process.argv.slice(2), process.env).catch((error) => {
  process.stderr.write(`adt-ls simulator: ${error?.stack ?? error}\n`);
  process.exit(1);
});
