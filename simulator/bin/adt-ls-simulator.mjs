#!/usr/bin/env node
// adt-ls-simulator CLI:
//   adt-ls-simulator install [--home <dir>] [--editor vscode|cursor|insiders] [--version 1.1.2]
//                            [--platform linux|darwin|win32] [--arch x64|arm64] [--incomplete]
//   adt-ls-simulator path     prints the absolute path of the fake adt-ls entry script
//   adt-ls-simulator sap [--port 0] [--tls self-signed] [--user NAME:PW] ...
//                             a standalone simulated SAP backend (lib/sap/main.mjs)
//   adt-ls-simulator replay <trace.jsonl> [--report <file>] [--json] [-- <command> [args...]]
//                             replay an adt-ls-native wire trace (lib/replay/cli.mjs)
import { parseArgs } from 'node:util';
import { installSimulator, simulatorBinPath } from '../lib/install.mjs';
import { REPLAY_USAGE, runReplay } from '../lib/replay/cli.mjs';

const USAGE = `Usage:
  adt-ls-simulator install [--home <dir>] [--editor vscode|cursor|insiders] [--version <x.y.z>]
                           [--platform linux|darwin|win32] [--arch x64|arm64] [--incomplete]
  adt-ls-simulator path
  adt-ls-simulator sap [--port <n>] [--tls self-signed|private-ca|none] [--user NAME:PASSWORD]... [--token T]...
                       [--expired-token T]... [--client 001]... [--hostname h] [--ticket-ttl-ms n]
  ${REPLAY_USAGE}
`;

function run(argv) {
  const [command, ...rest] = argv;
  if (command === 'path') {
    process.stdout.write(`${simulatorBinPath()}\n`);
    return 0;
  }
  if (command === 'install') {
    const { values } = parseArgs({
      args: rest,
      options: {
        home: { type: 'string' },
        editor: { type: 'string' },
        version: { type: 'string' },
        platform: { type: 'string' },
        arch: { type: 'string' },
        incomplete: { type: 'boolean' },
      },
    });
    const result = installSimulator(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  process.stderr.write(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

if (process.argv[2] === 'replay') {
  try {
    process.exitCode = await runReplay(process.argv.slice(3));
  } catch (error) {
    process.stderr.write(`adt-ls-simulator replay: ${error.message}\n`);
    process.exitCode = 2;
  }
} else if (process.argv[2] === 'sap') {
  // The backend's own entry parses process.argv and runs until killed.
  process.argv.splice(2, 1);
  await import('../lib/sap/main.mjs');
} else {
  try {
    process.exitCode = run(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`adt-ls-simulator: ${error.message}\n`);
    process.exitCode = 1;
  }
}
