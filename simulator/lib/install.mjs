// Installs the simulator as a fake `SAPSE.adt-vscode` editor extension, laid out exactly as
// discovery expects (docs/wire.md#discovery): `<home>/<editor dir>/extensions/sapse.adt-vscode-<version>-
// <platform>-<arch>/adt-ls/<platform sub-path>`, plus the bundled JRE (keytool, java, cacerts)
// where the SDK looks for it (docs/wire.md#jre-tools).

import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacerts } from './install/cacerts.mjs';
import { findSystemKeytool, writeAdtLsLauncher, writeJavaLauncher, writeKeytoolLauncher } from './install/launchers.mjs';

export const EDITOR_DIRS = Object.freeze({
  vscode: '.vscode',
  cursor: '.cursor',
  insiders: '.vscode-insiders',
});
export const PLATFORMS = Object.freeze(['linux', 'darwin', 'win32']);
export const ARCHES = Object.freeze(['x64', 'arm64']);
export const DEFAULT_EXTENSION_VERSION = '1.1.2';
export const JRE_VERSION = '21.12.0';

/** Absolute path of the fake adt-ls entry script (for `adtLs.path` / `extraArgs` use). */
export function simulatorBinPath() {
  return fileURLToPath(new URL('../bin/adt-ls.mjs', import.meta.url));
}

const javaArch = (arch) => (arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : arch);

/** Binary sub-path below `adt-ls/` and the JRE plugins root relative to the binary's dir. */
export function platformLayout(platform, arch) {
  const a = javaArch(arch);
  switch (platform) {
    case 'linux':
      return { subPath: ['linux', 'gtk', a, 'adt-ls'], pluginsFromBin: ['plugins'], jreOs: 'linux', keytool: 'keytool', java: 'java' };
    case 'darwin':
      return {
        subPath: ['macosx', 'cocoa', a, 'Adt-ls.app', 'Contents', 'MacOS', 'adt-ls'],
        pluginsFromBin: ['..', 'Eclipse', 'plugins'],
        jreOs: 'macosx',
        keytool: 'keytool',
        java: 'java',
      };
    case 'win32':
      return { subPath: ['win32', 'win32', a, 'adt-lsc.exe'], pluginsFromBin: ['plugins'], jreOs: 'win32', keytool: 'keytool.exe', java: 'java.exe' };
    default:
      throw new Error(`Unsupported platform: ${platform}`);
  }
}

/**
 * Lays out one fake extension.
 * @param {object} opts
 * @param {string} opts.home              the home directory to install under
 * @param {'vscode'|'cursor'|'insiders'} [opts.editor='vscode']
 * @param {string} [opts.version='1.1.2']  the extension version in the folder name
 * @param {'linux'|'darwin'|'win32'} [opts.platform=process.platform]
 * @param {'x64'|'arm64'} [opts.arch=process.arch]
 * @param {boolean} [opts.incomplete=false] omit the adt-ls binary
 * @param {string} [opts.nodePath=process.execPath]
 * @param {string} [opts.winLauncher=ADTLS_SIM_WIN_LAUNCHER] on win32: the built
 *   `win32-launcher.c` copied to `adt-lsc.exe` (without it a `#!/bin/sh` script is written,
 *   enough for discovery but not for a spawn)
 * @returns {{binPath, extensionDir, extensionsDir, jreDir, keytoolPath, javaPath, cacertsPath}}
 */
export function installFakeExtension(opts) {
  const {
    home,
    editor = 'vscode',
    version = DEFAULT_EXTENSION_VERSION,
    platform = process.platform,
    arch = process.arch,
    incomplete = false,
    nodePath = process.execPath,
    winLauncher = platform === 'win32' ? process.env.ADTLS_SIM_WIN_LAUNCHER : undefined,
  } = opts ?? {};
  if (!home) throw new Error('installFakeExtension: `home` is required');
  if (!EDITOR_DIRS[editor]) throw new Error(`Unknown editor "${editor}" (use ${Object.keys(EDITOR_DIRS).join(', ')})`);
  if (!ARCHES.includes(arch)) throw new Error(`Unsupported arch: ${arch}`);
  const layout = platformLayout(platform, arch);

  const extensionsDir = join(home, EDITOR_DIRS[editor], 'extensions');
  const extensionDir = join(extensionsDir, `sapse.adt-vscode-${version}-${platform}-${arch}`);
  const binPath = join(extensionDir, 'adt-ls', ...layout.subPath);
  const binDir = dirname(binPath);
  const jreDir = join(binDir, ...layout.pluginsFromBin, `com.sap.adt.jvm.sapmachineminimal.${layout.jreOs}.${javaArch(arch)}_${JRE_VERSION}`, 'jre');
  const keytoolPath = join(jreDir, 'bin', layout.keytool);
  const javaPath = join(jreDir, 'bin', layout.java);
  const cacertsPath = join(jreDir, 'lib', 'security', 'cacerts');

  mkdirSync(binDir, { recursive: true });
  mkdirSync(dirname(keytoolPath), { recursive: true });
  mkdirSync(dirname(cacertsPath), { recursive: true });
  writeFileSync(
    join(extensionDir, 'package.json'),
    `${JSON.stringify({ name: 'adt-vscode', publisher: 'SAPSE', version, description: 'adt-ls simulator (fake extension)' }, null, 2)}\n`,
  );
  if (!incomplete) writeAdtLsLauncher(binPath, { nodePath, simulatorBin: simulatorBinPath(), winLauncher });
  writeKeytoolLauncher(keytoolPath, { systemKeytool: findSystemKeytool(dirname(keytoolPath)) });
  writeJavaLauncher(javaPath, { nodePath, winLauncher });
  writeFileSync(cacertsPath, defaultCacerts(), { mode: 0o644 });
  return { binPath, extensionDir, extensionsDir, jreDir, keytoolPath, javaPath, cacertsPath };
}

/** The CLI's install: the current user's home and platform unless told otherwise. */
export function installSimulator(opts = {}) {
  return installFakeExtension({ home: homedir(), ...opts });
}
