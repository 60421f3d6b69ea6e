// README "Cancellation", plus every place call options go (a trailing `opts`, an extra
// trailing argument, the driver, the MCP client, diffPages). Compiled with tsc, never run.
import { createAdtLs, basic, AdtLsDriver, AdtLsMcpClient, type CallOptions } from 'adt-ls-native';

declare const pw: string;
const connection = { systemUrl: 'https://a4h.example.com:44300' };

const adt = await createAdtLs({ connection, auth: basic('DEVELOPER', pw) });
const controller = new AbortController();
setTimeout(() => controller.abort(), 5_000);
try {
  const hits = await adt.repository.search('CL_ABAP_*', { maxResults: 10, signal: controller.signal });
  const source = await adt.source.read({ name: 'ZCL_TEST', objectType: 'CLAS/OC' }, { timeoutMs: 2_000 });
  console.log(hits.references.length, source.length);
} catch (err) {
  if ((err as { name?: string }).name === 'AbortError') console.log('cancelled');
  else throw err;
}
for await (const page of adt.transport.diffPages('A4HK900101', { pageSize: 20, signal: controller.signal })) {
  process.stdout.write(page.diffResult ?? '');
}
await adt.dispose();

// Every call takes them.
const opts: CallOptions = { signal: AbortSignal.timeout(1_000), timeoutMs: 500 };
await adt.capabilities(opts);
await adt.raw.lsp('adtLs/x', undefined, opts);
await adt.navigation.findReferences({ name: 'X', objectType: 'CLAS/OC' }, { symbol: 'y' }, { includeDeclaration: true, ...opts });
const driver = new AdtLsDriver('/path/to/adt-ls');
await driver.sendRequest('sim/echo', {}, opts);
const mcp = new AdtLsMcpClient('http://localhost:2240/mcp', 'token');
await mcp.connect(opts);
await mcp.listTools(opts);
await mcp.callTool('abap_list_destinations', {}, opts);
await mcp.request('ping', undefined, opts);
await mcp.close(opts);
const pages = adt.transport.diffPages('A4HK900101');
const first = await pages.next();
await pages.return?.();
void first;
