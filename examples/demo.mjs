// The quick-start demo: find adt-ls (ADT_LS_PATH, vendor/, or the newest sapse.adt-vscode
// install) or, when none is installed, use the bundled simulator; start it, show the
// handshake and capabilities, and shut it down.
//
//   npm run demo            # discovered adt-ls, else the simulator
//   ADTLS_DEMO_SIMULATOR=1 npm run demo   # always the simulator

import { AdtLsDriver, resolveAdtLsPath, setLogger, stderrLogger } from '../index.js';
import { simulatorBinPath } from '../simulator/lib/install.mjs';

if (process.env.ADTLS_DEMO_VERBOSE) setLogger(stderrLogger('[demo]'));

function chooseAdtLs() {
  if (!process.env.ADTLS_DEMO_SIMULATOR) {
    try {
      const bin = resolveAdtLsPath();
      return { label: `adt-ls at ${bin}`, driver: new AdtLsDriver(bin) };
    } catch (e) {
      console.log(`No adt-ls installed (${e.message.split('\n')[0]})`);
    }
  }
  return {
    label: 'the adt-ls simulator',
    driver: new AdtLsDriver(process.execPath, { extraArgs: [simulatorBinPath()], extraEnv: { ADTLS_SIM_QUIET: '1' } }),
  };
}

const { label, driver } = chooseAdtLs();
console.log(`Starting ${label} ...`);
const t0 = performance.now();
try {
  const init = await driver.start();
  const ms = (performance.now() - t0).toFixed(0);
  const caps = init.capabilities;
  console.log(`Handshake done in ${ms} ms: ${init.serverInfo?.name} ${init.serverInfo?.version}`);
  const providers = Object.entries(caps)
    .filter(([k, v]) => k.endsWith('Provider') && v !== false)
    .map(([k]) => k.replace(/Provider$/, ''));
  console.log(`Capabilities (${Object.keys(caps).length} keys): ${providers.join(', ')}`);
  const legend = caps.semanticTokensProvider?.legend;
  if (legend) console.log(`Semantic tokens: ${legend.tokenTypes.length} types, ${legend.tokenModifiers.length} modifiers`);
} finally {
  await driver.dispose();
  console.log('Disposed: adt-ls stopped, temp files removed.');
}
