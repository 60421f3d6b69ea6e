// The fake bundled JRE's `cacerts`: a PKCS#12 keystore (password `changeit`) holding trusted
// CA certificates the way Java writes them, i.e. certificate bags carrying a friendlyName
// (the alias) and Oracle's trusted-key-usage attribute, so `keytool -list` shows them as
// trustedCertEntry. Keys come from node:crypto, certificates and ASN.1 from node-forge.

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

const { asn1, pki } = forge;
const OID = {
  data: '1.2.840.113549.1.7.1',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  friendlyName: '1.2.840.113549.1.9.20',
  oracleTrustedKeyUsage: '2.16.840.1.113894.746875.1.1',
  anyExtendedKeyUsage: '2.5.29.37.0',
  sha1: '1.3.14.3.2.26',
};
export const CACERTS_PASSWORD = 'changeit';
const MAC_ITERATIONS = 2048;

const U = asn1.Class.UNIVERSAL;
const T = asn1.Type;
const seq = (items) => asn1.create(U, T.SEQUENCE, true, items);
const set = (items) => asn1.create(U, T.SET, true, items);
const oid = (value) => asn1.create(U, T.OID, false, asn1.oidToDer(value).getBytes());
const octets = (bytes) => asn1.create(U, T.OCTETSTRING, false, bytes);
const explicit0 = (inner) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [inner]);
const attribute = (type, values) => seq([oid(type), set(values)]);

/** A self-signed CA certificate (PEM) with a fresh RSA key. */
export function createCaCertificate(commonName, { years = 10 } = {}) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = pki.createCertificate();
  cert.publicKey = pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(now + years * 365 * 24 * 3600 * 1000);
  const subject = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'adt-ls simulator' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return pki.certificateToPem(cert);
}

function trustedCertBag(alias, pem) {
  const der = asn1.toDer(pki.certificateToAsn1(pki.certificateFromPem(pem))).getBytes();
  return seq([
    oid(OID.certBag),
    explicit0(seq([oid(OID.x509Certificate), explicit0(octets(der))])),
    set([
      attribute(OID.friendlyName, [asn1.create(U, T.BMPSTRING, false, alias)]),
      attribute(OID.oracleTrustedKeyUsage, [oid(OID.anyExtendedKeyUsage)]),
    ]),
  ]);
}

/**
 * A Java-compatible PKCS#12 truststore (DER bytes) with one trustedCertEntry per
 * {alias, pem}. Certificates are stored unencrypted (as `keytool` allows); the file is
 * integrity-protected with an HMAC-SHA1 MAC derived from the password.
 */
export function buildTrustStore(entries, password = CACERTS_PASSWORD) {
  const safeContents = seq(entries.map(({ alias, pem }) => trustedCertBag(alias, pem)));
  const authenticatedSafe = seq([seq([oid(OID.data), explicit0(octets(asn1.toDer(safeContents).getBytes()))])]);
  const authSafeBytes = asn1.toDer(authenticatedSafe).getBytes();

  const salt = forge.random.getBytesSync(20);
  const key = forge.pkcs12.generateKey(password, new forge.util.ByteBuffer(salt), 3, MAC_ITERATIONS, 20);
  const hmac = forge.hmac.create();
  hmac.start('sha1', key);
  hmac.update(authSafeBytes);
  const macData = seq([
    seq([seq([oid(OID.sha1), asn1.create(U, T.NULL, false, '')]), octets(hmac.digest().getBytes())]),
    octets(salt),
    asn1.create(U, T.INTEGER, false, asn1.integerToDer(MAC_ITERATIONS).getBytes()),
  ]);
  const pfx = seq([
    asn1.create(U, T.INTEGER, false, asn1.integerToDer(3).getBytes()),
    seq([oid(OID.data), explicit0(octets(authSafeBytes))]),
    macData,
  ]);
  return Buffer.from(asn1.toDer(pfx).getBytes(), 'binary');
}

let defaultStore;
/** The simulator's stand-in for the JRE cacerts (two generated CAs), built once per process. */
export function defaultCacerts() {
  defaultStore ??= buildTrustStore([
    { alias: 'adtlssimrootca1 [jdk]', pem: createCaCertificate('adt-ls Simulator Root CA 1') },
    { alias: 'adtlssimrootca2 [jdk]', pem: createCaCertificate('adt-ls Simulator Root CA 2') },
  ]);
  return defaultStore;
}
