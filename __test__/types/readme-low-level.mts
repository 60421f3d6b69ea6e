// 0.5.0 README "Low-level driver", verbatim except the import path (ESM, top-level await);
// the README leaves `sncLib` and `myToken` to the reader. Compiled with tsc, never run.
import { resolveAdtLsPath, AdtLsDriver, startMcpServer } from 'adt-ls-native';

declare const sncLib: string;
declare const myToken: string;

const driver = new AdtLsDriver(resolveAdtLsPath(), {
  extraArgs: ['-consoleLog', `-Djco.middleware.snc_lib=${sncLib}`], // SNC/JCo JVM flags
});
await driver.start(); // discovery + spawn + LSP initialize (short pipe; macOS-safe)
// register your own logon handlers: driver.setRequestHandler('adtLs/destinations/requestBrowserBasedLogon', …)
const { port, token } = await startMcpServer(driver, { port: 2240, token: myToken });
// → proxy http://localhost:${port}/mcp (Authorization: Bearer ${token}) however you like
await driver.dispose();
void [port, token];
