// `await using` with the client, the driver and the MCP client (lib esnext, where
// esnext.disposable is part of it); compiled with tsc --strict, never run.
import { createAdtLs, basic, AdtLsDriver, AdtLsMcpClient } from 'adt-ls-native';

export async function awaitUsing(): Promise<string> {
  await using adt = await createAdtLs({
    connection: { systemUrl: 'https://my-s4:50001', selfSigned: true },
    auth: basic('DEVELOPER', 'secret'),
  });
  await using driver = new AdtLsDriver('/path/to/adt-ls');
  await using mcp = new AdtLsMcpClient('http://127.0.0.1:1/mcp', 'token');
  await driver.start();
  await mcp.connect();
  const hits = await adt.repository.search('CL_ABAP*');
  return JSON.stringify(hits);
}

export async function inAStack(): Promise<void> {
  await using stack = new AsyncDisposableStack();
  const adt = stack.use(await createAdtLs({}));
  const disposable: AsyncDisposable = adt;
  void disposable;
}
