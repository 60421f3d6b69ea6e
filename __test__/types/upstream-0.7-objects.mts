// The SDK's later API for objects (C11, C12, C14), used as a caller of the newest
// upstream version would: repository.readDirectory, repository.abapStat, source.read with a
// SourceVersion, and ObjectRef.uri (e.g. lifecycle.create's filePath). Compiled with tsc,
// never run.
import { createAdtLs, basic } from 'adt-ls-native';
import type { AdtLsClient, DirectoryEntry, ObjectRef, SourceVersion } from 'adt-ls-native';

const adt: AdtLsClient = await createAdtLs({
  connection: { systemUrl: 'https://my-s4:50001' },
  auth: basic('DEVELOPER', 'secret'),
});

const root: DirectoryEntry[] = await adt.repository.readDirectory('abap:/repotree-v1/ADTLS/');
const folders: string[] = root.filter((e) => e.kind === 'directory').map((e) => e.name);
const kind: 'file' | 'directory' | undefined = root[0]?.kind;

const { filePath } = await adt.lifecycle.create({ objectType: 'CLAS/OC', name: 'ZCL_X', packageName: '$TMP', description: 'x' });
const ref: ObjectRef = { name: 'ZCL_X', objectType: 'CLAS/OC', uri: filePath ?? '' };
const served: SourceVersion = await adt.repository.abapStat(ref.uri ?? '');
const active: string = await adt.source.read({ ...ref, version: 'active' });
const draft: string = await adt.source.read({ ...ref, include: 'testclasses', version: served });
await adt.lifecycle.update({ ...ref, source: active });
await adt.lifecycle.activate(ref);
await adt.navigation.hover(ref, { symbol: 'run' });
await adt.transport.check(ref);

// @ts-expect-error a version is 'active' or 'inactive'
await adt.source.read({ ...ref, version: 'draft' });
// @ts-expect-error ObjectRef.uri is a string
const badRef: ObjectRef = { name: 'ZCL_X', objectType: 'CLAS/OC', uri: 5 };

export { folders, kind, draft, badRef };
