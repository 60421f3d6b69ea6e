// `Symbol.asyncDispose` on the client, the driver and the MCP client type-checks without
// lib esnext.disposable (compiled with lib es2022, with and without @types/node); never run.
import { createAdtLs, AdtLsDriver, AdtLsMcpClient } from 'adt-ls-native';
import type { AdtLsClient } from 'adt-ls-native';

export async function disposeBySymbol(): Promise<void> {
  const adt: AdtLsClient = await createAdtLs({});
  const disposed: Promise<void> = adt[Symbol.asyncDispose]();
  await disposed;

  const driver = new AdtLsDriver('/path/to/adt-ls');
  await driver[Symbol.asyncDispose]();

  const mcp = new AdtLsMcpClient('http://127.0.0.1:1/mcp', 'token');
  await mcp[Symbol.asyncDispose]();

  // Each is usable wherever an AsyncDisposable is expected.
  const all: AsyncDisposable[] = [adt, driver, mcp];
  void all;
}
