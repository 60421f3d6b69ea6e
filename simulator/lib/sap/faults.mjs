// Fault modes of the simulated backend, set through the control API: cold searches,
// one-shot failures per op, write races, artificial delays and paused calls.
import { SapError } from './errors.mjs';

const WRITE_RACE_ERRORS = [
  { message: 'HTTP 500: Internal Server Error while saving (stateful session lost)', status: 500 },
  { message: 'HTTP 423: Object is locked; the lock handle is no longer valid', status: 423 },
  { message: 'invalid lock handle: the object was unlocked by another request', status: 409 },
];

export function createFaults() {
  const faults = {
    cold: { remaining: 0, mode: 'empty' },
    failures: new Map(),
    writeRaceRemaining: 0,
    writeRaceIndex: 0,
    delays: new Map(),
    /** Answer styles per tool (`abap_transport-get`: 'explained', 'refusal-structured'). */
    toolStyles: new Map(),
    pauses: new Map(),

    /** True while cold searches remain (consumes one). */
    takeCold() {
      if (faults.cold.remaining <= 0) return false;
      faults.cold.remaining -= 1;
      return true;
    },

    /** The queued failure for `op`, if any (consumed). */
    takeFailure(op) {
      const queue = faults.failures.get(op);
      if (!queue || queue.length === 0) return undefined;
      if (queue[0].after > 0) {
        queue[0].after -= 1;
        return undefined;
      }
      const failure = queue.shift();
      if (queue.length === 0) faults.failures.delete(op);
      return failure;
    },

    /** A write-race SapError while races remain (500, 423, invalid lock in turn). */
    takeWriteRace() {
      if (faults.writeRaceRemaining <= 0) return undefined;
      faults.writeRaceRemaining -= 1;
      const spec = WRITE_RACE_ERRORS[faults.writeRaceIndex % WRITE_RACE_ERRORS.length];
      faults.writeRaceIndex += 1;
      return new SapError(spec.message, { status: spec.status });
    },

    styleOf(tool) {
      return faults.toolStyles.get(tool);
    },

    /** The gate of a paused call of `op`, if one is queued (consumed). */
    takePause(op) {
      const queue = faults.pauses.get(op);
      if (!queue || queue.length === 0) return undefined;
      const gate = queue.shift();
      if (queue.length === 0) faults.pauses.delete(op);
      return gate;
    },

    delayFor(op) {
      return faults.delays.get(op) ?? faults.delays.get('*') ?? 0;
    },

    reset() {
      faults.cold = { remaining: 0, mode: 'empty' };
      faults.failures.clear();
      faults.writeRaceRemaining = 0;
      faults.writeRaceIndex = 0;
      faults.delays.clear();
      faults.toolStyles.clear();
      for (const queue of faults.pauses.values()) for (const gate of queue) gate.open();
      faults.pauses.clear();
    },
  };
  return faults;
}
