// Persists the destinations (never a secret) to the store named by initializeService, as
// adt-ls does: a `.json` path is the file itself, any other path is a directory holding
// `destinations.json`.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export function storeFilePath(storePath) {
  return storePath.toLowerCase().endsWith('.json') ? storePath : join(storePath, 'destinations.json');
}

export function destinationView(dest) {
  const properties = { systemUrl: dest.systemUrl, authenticationKind: dest.authenticationKind };
  if (dest.user) properties.user = dest.user;
  properties.client = dest.client;
  properties.language = dest.language;
  return { id: dest.id, protocol: 'http', properties };
}

/** Writes the store file; resolves to an error message or undefined. */
export async function saveStore(storePath, destinations) {
  const file = storeFilePath(storePath);
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const body = { version: 1, destinations: [...destinations.values()].map(destinationView) };
    await writeFile(file, JSON.stringify(body, null, 2), { mode: 0o600 });
    return undefined;
  } catch (err) {
    return `could not write ${file}: ${err.message}`;
  }
}
