// The executables of the fake extension: an `adt-ls` launcher that runs the simulator with
// the current Node, a bundled-JRE `keytool` that delegates to a system keytool, and the
// bundled JRE's `java` (./java.mjs, answering `java -version`).
// On Windows `adt-lsc.exe` must be a real PE executable: a copy of the launcher built from
// win32-launcher.c (path in ADTLS_SIM_WIN_LAUNCHER), told what to run by `<exe>.launch`.

import { accessSync, chmodSync, constants, copyFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Quotes a string for POSIX sh (single quotes, embedded quotes escaped). */
export function shQuote(value) {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

function writeExecutable(path, text) {
  writeFileSync(path, text, { mode: 0o755 });
  chmodSync(path, 0o755);
}

/**
 * `#!/bin/sh` launcher that execs `node <simulator bin> "$@"`; with `winLauncher` (a built
 * win32-launcher.c) a copy of that executable plus its `<path>.launch` file instead.
 */
export function writeAdtLsLauncher(path, { nodePath, simulatorBin, winLauncher }) {
  if (winLauncher) {
    copyFileSync(winLauncher, path);
    writeFileSync(`${path}.launch`, `${nodePath}\n${simulatorBin}\n`);
    return;
  }
  writeExecutable(
    path,
    `#!/bin/sh\n# adt-ls simulator launcher (fake SAP adt-ls)\nexec ${shQuote(nodePath)} ${shQuote(simulatorBin)} "$@"\n`,
  );
}

/**
 * The fake JRE's `java`: a `#!/bin/sh` launcher of ./java.mjs with the current Node, or with
 * `winLauncher` a copy of that executable told to run it (like `adt-lsc.exe`).
 */
export function writeJavaLauncher(path, { nodePath, winLauncher }) {
  const script = fileURLToPath(new URL('./java.mjs', import.meta.url));
  if (winLauncher) {
    copyFileSync(winLauncher, path);
    writeFileSync(`${path}.launch`, `${nodePath}\n${script}\n`);
    return;
  }
  writeExecutable(path, `#!/bin/sh\n# java of the adt-ls simulator's fake bundled JRE\nexec ${shQuote(nodePath)} ${shQuote(script)} "$@"\n`);
}

/** The first executable `keytool` on PATH outside `excludeDir`, or ''. */
export function findSystemKeytool(excludeDir, pathEnv = process.env.PATH ?? '') {
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir || dir === excludeDir) continue;
    const candidate = join(dir, 'keytool');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return '';
}

/** keytool stand-in: runs ADTLS_SIM_KEYTOOL or the keytool found at install time, else exit 1. */
export function writeKeytoolLauncher(path, { systemKeytool }) {
  writeExecutable(
    path,
    [
      '#!/bin/sh',
      '# keytool of the adt-ls simulator\'s fake bundled JRE',
      `KEYTOOL="\${ADTLS_SIM_KEYTOOL:-${systemKeytool.replace(/["$`\\]/g, '\\$&')}}"`,
      'if [ -n "$KEYTOOL" ] && [ -x "$KEYTOOL" ]; then exec "$KEYTOOL" "$@"; fi',
      'echo "keytool: no system keytool available to the adt-ls simulator (install a JDK or set ADTLS_SIM_KEYTOOL)" >&2',
      'exit 1',
      '',
    ].join('\n'),
  );
}
