// The reference SDK's additions over 0.5.0, used as a user of the reference would (ESM):
// capabilities(), transport.getDiff paging until `completed`, lifecycle `additionalFields`,
// the MCP client, the exported version tuple, AdtLsError. Compiled with tsc, never run.
import { AdtLsError, AdtLsMcpClient, createAdtLs, basic, parseAdtLsVersion } from 'adt-ls-native';
import type { AdtLsCapabilities, AdtLsClient, McpTool, ParsedAdtLsVersion, TransportDiffPage } from 'adt-ls-native';

const adt: AdtLsClient = await createAdtLs({
  adtLs: { extraEnv: { JAVA_HOME: '/opt/jdk' }, startTimeoutMs: 90_000, requestTimeoutMs: 60_000 },
  connection: { systemUrl: 'https://my-s4:50001' },
  auth: basic('DEVELOPER', 'secret'),
  keepAlive: { intervalMs: 60_000 },
  mcpTimeoutMs: 30_000,
  logonTimeoutMs: 120_000,
});

const caps: AdtLsCapabilities = await adt.capabilities();
const toolNames: string[] = caps.tools.map((t: McpTool) => t.name);
const hasDiff = caps.tools.some((t) => t.name === 'abap_transport-unifiedDifference' && t.inputSchema !== undefined);
const completion: unknown = caps.lsp['completionProvider'];

const diffs: string[] = [];
let cursor: string | undefined;
for (;;) {
  const page: TransportDiffPage = await adt.transport.getDiff('A4HK900001', cursor === undefined ? {} : { cursor });
  if (typeof page.diffResult === 'string' && page.diffResult.length > 0) diffs.push(page.diffResult);
  if (page.batchInfo?.status === 'completed' || !page.nextCursor) break;
  cursor = page.nextCursor;
}

await adt.lifecycle.create({
  objectType: 'BDEF/BDO',
  name: 'ZR_SIM_FLIGHT',
  packageName: '$TMP',
  description: 'behaviour',
  additionalFields: { implementationType: 'managed' },
});
await adt.lifecycle.validate({ objectType: 'BDEF/BDO', name: 'ZR_SIM_FLIGHT', packageName: '$TMP', description: 'b', additionalFields: {} });

const version: ParsedAdtLsVersion | undefined = parseAdtLsVersion(caps.tools.length > 0 ? '1.1.2' : undefined);
const major: number | undefined = version?.[0];

const mcp = new AdtLsMcpClient(`http://127.0.0.1:${adt.health().mcpPort}/mcp`, 'token');
try {
  await mcp.connect();
  const tools: McpTool[] = await mcp.listTools();
  const result: unknown = await mcp.callTool('abap_list_destinations', {}, { timeoutMs: 5_000 });
  void [tools, result, mcp.sessionId, mcp.protocolVersion];
} catch (e) {
  if (e instanceof AdtLsError && e.code === 'ETIMEDOUT') console.error(e.message);
} finally {
  await mcp.close();
}

await adt.dispose();
void [toolNames, hasDiff, completion, diffs, major];
