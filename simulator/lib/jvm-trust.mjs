// What the simulated adt-ls (a JVM) trusts: parses JAVA_TOOL_OPTIONS as HotSpot does,
// reads the PKCS#12 truststore named by -Djavax.net.ssl.trustStore with node-forge, and
// falls back to a stand-in for the JRE's cacerts (Node's public root CAs). Failures are
// reported with the texts a JVM gives. A JKS store (a keytool copy of a JKS cacerts) is
// read too, as the JVM's keystore.type.compat does. Also writes PKCS#12 truststores.
// Like the JVM's default SSLContext, the key entry of the keystore named by
// -Djavax.net.ssl.keyStore (PKCS#12) becomes the client certificate presented to servers
// that ask for one (`identity`); an unreadable keystore fails every HTTPS connection.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import forge from 'node-forge';

/**
 * Splits JAVA_TOOL_OPTIONS like HotSpot: whitespace separates options; single or double
 * quotes group characters (whitespace included) and are removed, anywhere in an option.
 * Returns `{args}` or `{args: [], error}` for an unmatched quote.
 */
export function parseJavaToolOptions(text) {
  const args = [];
  const input = String(text ?? '');
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i])) i += 1;
    if (i >= input.length) break;
    let arg = '';
    while (i < input.length && !/\s/.test(input[i])) {
      const c = input[i];
      if (c === "'" || c === '"') {
        const end = input.indexOf(c, i + 1);
        if (end < 0) return { args: [], error: 'Unmatched quote in JAVA_TOOL_OPTIONS' };
        arg += input.slice(i + 1, end);
        i = end + 1;
      } else {
        arg += c;
        i += 1;
      }
    }
    args.push(arg);
  }
  return { args };
}

/** The javax.net.ssl.trustStore* system properties among parsed JVM options. */
export function trustStoreSettings(args) {
  const props = {};
  for (const arg of args) {
    const m = /^-D(javax\.net\.ssl\.trustStore(?:Password|Type)?)=(.*)$/s.exec(arg);
    if (m) props[m[1]] = m[2];
  }
  return {
    path: props['javax.net.ssl.trustStore'],
    password: props['javax.net.ssl.trustStorePassword'],
    type: props['javax.net.ssl.trustStoreType'] ?? 'PKCS12',
  };
}

/** The javax.net.ssl.keyStore* system properties among parsed JVM options. */
export function keyStoreSettings(args) {
  const props = {};
  for (const arg of args) {
    const m = /^-D(javax\.net\.ssl\.keyStore(?:Password|Type)?)=(.*)$/s.exec(arg);
    if (m) props[m[1]] = m[2];
  }
  return {
    path: props['javax.net.ssl.keyStore'],
    password: props['javax.net.ssl.keyStorePassword'],
    type: props['javax.net.ssl.keyStoreType'] ?? 'PKCS12',
  };
}

function derBytesToPem(bytes) {
  const body = forge.util.encode64(bytes).replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

/** The certificates (PEM) of a PKCS#12 store; throws with the JVM's message on failure. */
export function readPkcs12Certificates(buffer, password) {
  let p12;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(buffer.toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password ?? '');
  } catch (err) {
    if (/Invalid password|decrypt/i.test(err.message)) {
      throw new Error('java.io.IOException: keystore password was incorrect');
    }
    throw new Error('java.io.IOException: Invalid keystore format');
  }
  const bags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  return bags.map((bag) =>
    bag.cert ? forge.pki.certificateToPem(bag.cert) : derBytesToPem(forge.asn1.toDer(bag.asn1).getBytes()),
  );
}

const JKS_MAGIC = 0xfeedfeed;

/** The trusted certificates (PEM) of a JKS store; verifies the store's SHA-1 integrity. */
export function readJksCertificates(buffer, password) {
  let offset = 0;
  const u32 = () => {
    const v = buffer.readUInt32BE(offset);
    offset += 4;
    return v;
  };
  const utf = () => {
    const len = buffer.readUInt16BE(offset);
    offset += 2 + len;
    return buffer.subarray(offset - len, offset).toString('utf8');
  };
  const blob = () => {
    const len = u32();
    offset += len;
    return buffer.subarray(offset - len, offset);
  };
  const pems = [];
  try {
    if (u32() !== JKS_MAGIC) throw new Error('magic');
    const version = u32();
    const count = u32();
    for (let i = 0; i < count; i += 1) {
      const tag = u32();
      utf();
      offset += 8;
      if (tag === 1) {
        blob();
        const chain = u32();
        for (let c = 0; c < chain; c += 1) {
          if (version === 2) utf();
          blob();
        }
      } else if (tag === 2) {
        if (version === 2) utf();
        pems.push(derBytesToPem(blob().toString('binary')));
      } else throw new Error('tag');
    }
  } catch {
    throw new Error('java.io.IOException: Invalid keystore format');
  }
  if (password !== undefined) {
    const digest = createHash('sha1')
      .update(Buffer.from(password, 'utf16le').swap16())
      .update('Mighty Aphrodite', 'utf8')
      .update(buffer.subarray(0, offset))
      .digest();
    if (!digest.equals(buffer.subarray(offset, offset + 20))) {
      throw new Error('java.io.IOException: Keystore was tampered with, or password was incorrect');
    }
  }
  return pems;
}

/**
 * The first key entry of a PKCS#12 keystore as `{key, cert}` PEM (the key PKCS#8, any
 * algorithm); throws with the JVM's message on failure.
 */
export function readPkcs12KeyEntry(buffer, password) {
  let p12;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(buffer.toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password ?? '');
  } catch (err) {
    if (/Invalid password|decrypt/i.test(err.message)) {
      throw new Error('java.io.IOException: keystore password was incorrect');
    }
    throw new Error('java.io.IOException: Invalid keystore format');
  }
  const keyBags = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? [];
  const certBags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const keyBag = keyBags[0];
  if (!keyBag || certBags.length === 0) throw new Error('java.security.UnrecoverableKeyException: no key entry in the keystore');
  const keyAsn1 = keyBag.key ? forge.pki.privateKeyToAsn1(keyBag.key) : keyBag.asn1;
  const keyInfo = keyBag.key ? forge.pki.wrapRsaPrivateKey(keyAsn1) : keyAsn1;
  const keyBody = forge.util.encode64(forge.asn1.toDer(keyInfo).getBytes()).replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  const bag = certBags[0];
  const cert = bag.cert ? forge.pki.certificateToPem(bag.cert) : derBytesToPem(forge.asn1.toDer(bag.asn1).getBytes());
  return { key: `-----BEGIN PRIVATE KEY-----\n${keyBody}\n-----END PRIVATE KEY-----\n`, cert };
}

/** The JVM's client identity for `args` (`{identity}`, `{}` without a keystore, or `{error}`). */
function loadKeyStore(args) {
  const settings = keyStoreSettings(args);
  if (!settings.path) return {};
  if (settings.type.toUpperCase() !== 'PKCS12') return { error: `java.security.KeyStoreException: ${settings.type} not found` };
  try {
    return { identity: readPkcs12KeyEntry(readFileSync(settings.path), settings.password) };
  } catch (err) {
    return { error: err.code ? `java.io.FileNotFoundException: ${settings.path} (No such file or directory)` : err.message };
  }
}

function readStore(buffer, password) {
  if (buffer.length >= 4 && buffer.readUInt32BE(0) === JKS_MAGIC) return readJksCertificates(buffer, password);
  return readPkcs12Certificates(buffer, password);
}

const noAnchors = () =>
  'javax.net.ssl.SSLException: java.lang.RuntimeException: Unexpected error: ' +
  'java.security.InvalidAlgorithmParameterException: the trustAnchors parameter must be non-empty';

/**
 * The trust of the JVM for `javaToolOptions` (defaults to the environment's). Never
 * throws: `{ca: string[], source: 'truststore'|'default', path?, identity?: {key, cert}}`
 * or `{error, source}`. `keyStore: false` ignores the keystore options (for callers that
 * only saw a redacted password).
 * (the error surfaces when the JVM first opens an HTTPS connection).
 */
export function loadJvmTrust({ javaToolOptions = process.env.JAVA_TOOL_OPTIONS, keyStore: withKeyStore = true } = {}) {
  const parsed = parseJavaToolOptions(javaToolOptions);
  if (parsed.error) return { error: `Error: Could not create the Java Virtual Machine. ${parsed.error}`, source: 'options' };
  const keyStore = withKeyStore ? loadKeyStore(parsed.args) : {};
  if (keyStore.error) return { error: keyStore.error, source: 'keystore' };
  const trust = loadTrustStore(parsed.args);
  return keyStore.identity && !trust.error ? { ...trust, identity: keyStore.identity } : trust;
}

function loadTrustStore(args) {
  const settings = trustStoreSettings(args);
  if (!settings.path) return { ca: [...rootCertificates], source: 'default' };
  if (!['PKCS12', 'JKS'].includes(settings.type.toUpperCase())) {
    return { error: `java.security.KeyStoreException: ${settings.type} not found`, source: 'truststore', path: settings.path };
  }
  let buffer;
  try {
    buffer = readFileSync(settings.path);
  } catch {
    return { error: noAnchors(), source: 'truststore', path: settings.path };
  }
  try {
    const ca = readStore(buffer, settings.password);
    if (ca.length === 0) return { error: noAnchors(), source: 'truststore', path: settings.path };
    return { ca, source: 'truststore', path: settings.path };
  } catch (err) {
    return { error: err.message, source: 'truststore', path: settings.path };
  }
}

/** A PKCS#12 truststore (DER Buffer) holding `certPems`, protected by `password`. */
export function createPkcs12Truststore(certPems, password = 'changeit') {
  const certs = certPems.map((pem) => forge.pki.certificateFromPem(pem));
  const asn1 = forge.pkcs12.toPkcs12Asn1(null, certs.length > 0 ? certs : null, password, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
