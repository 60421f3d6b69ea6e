// X.509 material for the simulated SAP system: RSA keys from node:crypto, certificates
// built and signed with node-forge. Owns: self-signed server certs, a private CA with
// leaves, and the client-certificate CA used for mutual TLS logon.
import { generateKeyPair, generateKeyPairSync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

const generateKeyPairAsync = promisify(generateKeyPair);
const RSA_OPTIONS = {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
};
const DAY_MS = 24 * 60 * 60 * 1000;

/** A fresh RSA key pair as PEM strings `{publicKeyPem, privateKeyPem}`. */
export async function newKeyPair() {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', RSA_OPTIONS);
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

function newKeyPairSync() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', RSA_OPTIONS);
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

function subjectAttrs(commonName, organization = 'SAP Simulator') {
  return [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: organization },
  ];
}

function sanEntries({ dnsNames = [], ipAddresses = [] }) {
  return [
    ...dnsNames.map((value) => ({ type: 2, value })),
    ...ipAddresses.map((ip) => ({ type: 7, ip })),
  ];
}

/**
 * Signs a certificate. `issuer` is `{certPem, keyPem}` or undefined for a self-signed one.
 * `kind` is 'ca', 'server' or 'client'.
 */
function buildCertificate({ commonName, keys, issuer, kind, dnsNames, ipAddresses, days = 825 }) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKeyPem);
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - DAY_MS);
  cert.validity.notAfter = new Date(Date.now() + days * DAY_MS);
  cert.setSubject(subjectAttrs(commonName));
  const issuerCert = issuer ? forge.pki.certificateFromPem(issuer.certPem) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subjectAttrs(commonName));
  const extensions = [];
  if (kind === 'ca') {
    extensions.push({ name: 'basicConstraints', cA: true, critical: true });
    extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true });
  } else {
    extensions.push({ name: 'basicConstraints', cA: false });
    extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true });
    extensions.push({
      name: 'extKeyUsage',
      serverAuth: kind === 'server',
      clientAuth: kind === 'client',
    });
  }
  const altNames = sanEntries({ dnsNames, ipAddresses });
  if (altNames.length > 0) extensions.push({ name: 'subjectAltName', altNames });
  extensions.push({ name: 'subjectKeyIdentifier' });
  cert.setExtensions(extensions);
  const signingKeyPem = issuer ? issuer.keyPem : keys.privateKeyPem;
  cert.sign(forge.pki.privateKeyFromPem(signingKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A self-signed server certificate for `hostname` (a DNS SAN only, no IP). */
export async function selfSignedServerCert(hostname) {
  const keys = await newKeyPair();
  const certPem = buildCertificate({
    commonName: hostname,
    keys,
    kind: 'server',
    dnsNames: [hostname],
  });
  return { certPem, keyPem: keys.privateKeyPem };
}

/** A private CA `{certPem, keyPem}` with the given common name. */
export async function privateCa(commonName) {
  const keys = await newKeyPair();
  const certPem = buildCertificate({ commonName, keys, kind: 'ca', days: 3650 });
  return { certPem, keyPem: keys.privateKeyPem };
}

/** A server leaf issued by `ca` for the given names (valid `days` days; negative: expired). */
export async function issueServerCert(ca, { commonName, dnsNames, ipAddresses, days }) {
  const keys = await newKeyPair();
  const certPem = buildCertificate({
    commonName,
    keys,
    issuer: ca,
    kind: 'server',
    dnsNames,
    ipAddresses,
    days,
  });
  return { certPem, keyPem: keys.privateKeyPem };
}

/** A client certificate with subject CN=`cn` issued by `ca` (synchronous). */
export function issueClientCertSync(ca, cn) {
  const keys = newKeyPairSync();
  const certPem = buildCertificate({ commonName: cn, keys, issuer: ca, kind: 'client' });
  return { certPem, keyPem: keys.privateKeyPem };
}
