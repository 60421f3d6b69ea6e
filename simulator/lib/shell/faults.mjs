// Fault injection on the incoming message stream: crash the process or drop the socket when
// the Nth matching request arrives (that request stays unanswered), and delay responses.
// Counting starts after `initialize`; `crashAfter: N` answers N matching requests, then crashes.

import { writeSync } from 'node:fs';

/**
 * @param {object} opts
 * @param {object} opts.config   see lib/config.mjs
 * @param {(ev: object) => void} opts.trace
 * @param {(code: number) => void} opts.exit       ends the process (injectable for tests)
 * @param {() => void} opts.dropSocket             destroys the SDK socket, process stays alive
 */
export function createFaults({ config, trace, exit, dropSocket }) {
  const methodsById = new Map();
  let crashCount = 0;
  let dropCount = 0;
  let dead = false;

  const matches = (filter, method) => !filter || method === filter;

  function crash(message) {
    dead = true;
    trace({ event: 'crash', method: message.method, id: message.id, code: config.crashCode, signal: config.crashSignal });
    if (config.crashStderr) writeSync(2, `${config.crashStderr}\n`);
    if (config.crashSignal) process.kill(process.pid, config.crashSignal);
    else exit(config.crashCode);
  }

  function drop(message) {
    dead = true;
    trace({ event: 'drop', method: message.method, id: message.id });
    dropSocket();
  }

  /** Returns false when the message must not be dispatched. */
  function admit(message) {
    if (dead) return false;
    const isRequest = typeof message.method === 'string' && message.id !== undefined;
    if (!isRequest) return true;
    methodsById.set(message.id, message.method);
    if (message.method === 'initialize') return true;
    if (config.crashAfter !== undefined && matches(config.crashMethod, message.method)) {
      if (crashCount++ >= config.crashAfter) {
        crash(message);
        return false;
      }
    }
    if (config.dropAfter !== undefined && matches(config.dropMethod, message.method)) {
      if (dropCount++ >= config.dropAfter) {
        drop(message);
        return false;
      }
    }
    return true;
  }

  /** Delay (ms) for an outgoing message: only responses to matching requests are held. */
  function delayFor(message) {
    if (!config.delayMs || message.method !== undefined || message.id === undefined) return 0;
    const method = methodsById.get(message.id);
    methodsById.delete(message.id);
    if (config.delayMethod && method !== config.delayMethod) return 0;
    return config.delayMs;
  }

  return { admit, delayFor };
}
