// The usage examples of @marianfoo/adt-ls 0.5.0's README, with only the import path changed
// (docs/decisions.md#d3). Each block is its own function; compiled with tsc --strict, never run.
import { createAdtLs, basic, clientCert, resolveAdtLsPath, AdtLsDriver, startMcpServer } from 'adt-ls-native';
import { readFileSync } from 'node:fs';

declare const sncLib: string;
declare const myToken: string;

export async function quickStart(): Promise<void> {
  const adt = await createAdtLs({
    connection: { systemUrl: 'https://my-s4:50001', selfSigned: true, client: '001' },
    auth: basic('DEVELOPER', process.env.SAP_PW!),
  });

  const hits = await adt.repository.search('CL_ABAP*', { types: ['CLAS/OC'] });
  const src = await adt.source.read({ name: 'ZCL_FOO', objectType: 'CLAS/OC' });

  await adt.lifecycle.create({ objectType: 'CLAS/OC', name: 'ZCL_BAR', packageName: '$TMP', description: 'demo' });
  await adt.lifecycle.activate({ name: 'ZCL_BAR', objectType: 'CLAS/OC' });

  await adt.dispose();
  void [hits, src];
}

export async function clientCertificate(): Promise<void> {
  const adt = await createAdtLs({
    connection: { systemUrl: 'https://my-s4:50001', selfSigned: true, client: '001' },
    auth: clientCert({ cert: readFileSync('client.crt'), key: readFileSync('client.key') }),
  });
  await adt.dispose();
}

export async function lowLevel(): Promise<void> {
  const driver = new AdtLsDriver(resolveAdtLsPath(), {
    extraArgs: ['-consoleLog', `-Djco.middleware.snc_lib=${sncLib}`],
  });
  await driver.start();
  const { port, token } = await startMcpServer(driver, { port: 2240, token: myToken });
  void `http://localhost:${port}/mcp ${token}`;
  await driver.dispose();
}
