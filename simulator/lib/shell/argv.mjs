// Parses the argv the SDK gives adt-ls: `[...extraArgs] -Djco.trace_path <dir> -data <dir>
// --pipe=<address>`. `--pipe=` may appear anywhere; unknown arguments are kept as extraArgs.

export function parseAdtLsArgv(argv) {
  const result = { pipe: undefined, dataDir: undefined, jcoTracePath: undefined, extraArgs: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg.startsWith('--pipe=')) result.pipe = arg.slice('--pipe='.length);
    else if (arg === '-data' && i + 1 < argv.length) result.dataDir = argv[++i];
    else if (arg === '-Djco.trace_path' && i + 1 < argv.length) result.jcoTracePath = argv[++i];
    else result.extraArgs.push(arg);
  }
  return result;
}
