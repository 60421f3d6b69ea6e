// CTS locks as SAP keeps them: an object being changed is locked in one modifiable transport
// *request* (a task assigned to it locks the object in the task's request). Request and task
// numbers match case-insensitively. A transport belongs to one client (`client`, absent =
// every client of the system); a lock held by a transport of another client cannot be
// checked or changed from this one. Assignments to unknown, released or foreign numbers
// change nothing (adt-ls still answers `true`, as the live 1.1.2 does).

/** The transport request and task behind `number` (`{request, task?}`), or undefined. */
export function requestOf(repo, number) {
  const wanted = String(number ?? '').trim().toUpperCase();
  if (wanted === '') return undefined;
  for (const request of repo.transports.values()) {
    if (request.number.toUpperCase() === wanted) return { request };
    const task = request.tasks.find((t) => t.number.toUpperCase() === wanted);
    if (task) return { request, task };
  }
  return undefined;
}

/** True when `transport` can be seen and changed from a session in `client`. */
export const ofClient = (transport, client) => transport.client === undefined || transport.client === client;

/** The modifiable request that locks `obj` and the entry recording it, or undefined. */
export function lockOf(repo, obj) {
  for (const request of repo.transports.values()) {
    if (request.status !== 'modifiable') continue;
    const entry = request.objects.find((o) => o.name === obj.name && o.type === obj.type);
    if (entry) return { request, entry };
  }
  return undefined;
}

/** The TADIR key SAP names locked objects by: `R3TR CLAS ZCL_X`. */
export const tadirKey = (obj) => `R3TR ${obj.type.split('/')[0]} ${obj.name}`;

/**
 * Assign `obj` to the transport `number` as `assignTransportToObject` does: an unlocked
 * object becomes locked in the request (through the task, when a task number was given);
 * an object locked elsewhere, or a number that is unknown, released or of another client,
 * changes nothing. Returns whether the lock changed.
 */
export function assignToTransport(repo, number, obj, client) {
  const target = requestOf(repo, number);
  if (!target || target.request.status !== 'modifiable' || !ofClient(target.request, client)) return false;
  if (lockOf(repo, obj)) return false;
  const entry = { name: obj.name, type: obj.type };
  if (target.task) entry.task = target.task.number;
  target.request.objects.push(entry);
  return true;
}

/**
 * What `checkTransportForObjectLock` reports about the lock of `obj` for a session in
 * `client`: the lock's request numbers, or a failed check with SAP's message when the lock
 * is held in a task of another client.
 */
export function lockReport(repo, obj, client) {
  const lock = lockOf(repo, obj);
  if (!lock) return { successful: true, locked: false, locks: [], errorMessages: [] };
  if (!ofClient(lock.request, client)) {
    const task = lock.entry.task ?? lock.request.tasks[0]?.number ?? lock.request.number;
    const owner = lock.request.owner ?? 'DEVELOPER';
    return {
      successful: false,
      locked: true,
      locks: [],
      foreignTask: task,
      errorMessages: [{ message: `Object ${tadirKey(obj)} locked in task ${task} (${owner}) not specified for this client`, severity: 'E' }],
    };
  }
  return { successful: true, locked: true, locks: [{ number: lock.request.number }], errorMessages: [], request: lock.request };
}
