// docs/compat.md ("Precise result types and code that implements the client"): calling code
// written for 0.5.0 compiles unchanged (usage-0.5.0.ts, consumer-0.5.0.mts), but a hand-written
// fake that *implements* the client against 0.5.0's surface no longer satisfies AdtLsClient,
// whose namespaces gained members (readDirectory, abapStat, ...) and precise result types.
// What such code should do instead compiles here. Compiled with tsc, never run.
import type { AdtLsClient, SourceVersion } from 'adt-ls-native';

/** A test double written against 0.5.0's Repository: only the members it had. */
const repository05 = {
  search: async () => ({ references: [] }),
  getUsers: async () => [],
  getLsUri: async (adtUri: string) => `abap:/repotree-v1/ADTLS/${adtUri}`,
  readFile: async () => '',
  writeFile: async (): Promise<unknown> => undefined,
  delete: async (): Promise<unknown> => undefined,
  listInactive: async (): Promise<unknown[]> => [],
};

// @ts-expect-error the fake lacks the members added since 0.5.0 (readDirectory, abapStat)
const strict: AdtLsClient['repository'] = repository05;

// 1. Type the fake as a Partial of the interface (and only the members a test uses).
const partial: Partial<AdtLsClient['repository']> = repository05;
const fakeClient: Partial<AdtLsClient> = { repository: { ...repository05, abapStat: async (): Promise<SourceVersion> => 'active', readDirectory: async () => [] } };

// 2. Or hand the fake to code under test through a cast, where it expects the whole client.
function codeUnderTest(client: AdtLsClient): Promise<string> {
  return client.repository.readFile('abap:/repotree-v1/ADTLS/x.clas.abap');
}
await codeUnderTest(fakeClient as AdtLsClient);

// 3. Or use the simulator (adt-ls-simulator) and a real client instead of a fake.

export { strict, partial };
