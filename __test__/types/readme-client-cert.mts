// 0.5.0 README "Client certificate", verbatim except the import path (ESM, top-level await).
// Compiled with tsc, never run.
import { createAdtLs, clientCert } from 'adt-ls-native';
import { readFileSync } from 'node:fs';

const adt = await createAdtLs({
  connection: { systemUrl: 'https://my-s4:50001', selfSigned: true, client: '001' },
  auth: clientCert({ cert: readFileSync('client.crt'), key: readFileSync('client.key') }),
});
void adt;
