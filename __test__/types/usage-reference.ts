// The reference SDK's additions over npm 0.5.0 type-check too (docs/decisions.md#d3).
import { createAdtLs, parseAdtLsVersion } from 'adt-ls-native';
import type { AdtLsCapabilities, McpTool, ParsedAdtLsVersion, TransportDiffPage } from 'adt-ls-native';

async function main(): Promise<void> {
  const adt = await createAdtLs({});
  const caps: AdtLsCapabilities = await adt.capabilities();
  const tools: McpTool[] = caps.tools;
  const first: McpTool | undefined = tools[0];
  const schema: unknown = first?.inputSchema; // the reference declares `inputSchema?: unknown`
  const extra: unknown = first?.['x-custom'];
  const lsp: Record<string, unknown> = caps.lsp;
  let page: TransportDiffPage = await adt.transport.getDiff('A4HK900001', { pageSize: 40 });
  while (page.batchInfo?.status !== 'completed' && page.nextCursor) {
    page = await adt.transport.getDiff('A4HK900001', { cursor: page.nextCursor, pageSize: 10 });
  }
  await adt.lifecycle.create({ objectType: 'BDEF/BDO', name: 'Z', packageName: '$TMP', description: 'd', additionalFields: { implementationType: 'managed' } });
  await adt.lifecycle.validate({ objectType: 'BDEF/BDO', name: 'Z', packageName: '$TMP', description: 'd', additionalFields: { x: 1 } });
  await adt.transport.create({ developmentPackage: 'Z', transportDescription: 'd', isCreation: true, objectName: 'Z', objectType: 'CLAS/OC' });
  const v: ParsedAdtLsVersion | undefined = parseAdtLsVersion('1.1.2');
  // @ts-expect-error ParsedAdtLsVersion is read-only
  if (v) v[0] = 2;
  await adt.dispose();
  void [schema, extra, lsp];
}

void main;
