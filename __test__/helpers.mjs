// Shared helpers for the node:test suites: where the simulator lives, temp dirs, reading the
// simulator's wire trace, and counting what a test leaves behind (processes, sockets, dirs).

import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// Every test process gets its own temp dir (the engine honours TMPDIR like os.tmpdir()),
// so "nothing left behind" checks never see another test file's files.
const SHARED_TMP = tmpdir();
export const TEST_TMP = mkdtempSync(join(SHARED_TMP, 'adt-ls-native-t-'));
process.env.TMPDIR = TEST_TMP;
process.on('exit', () => rmSync(TEST_TMP, { recursive: true, force: true }));
export const SIMULATOR_BIN = join(ROOT, 'simulator', 'bin', 'adt-ls.mjs');

/** Driver options that run the simulator through `node` (the reference's fixture trick). */
export function simDriverOptions(env = {}, extra = {}) {
  return { extraArgs: [SIMULATOR_BIN], extraEnv: { ADTLS_SIM_QUIET: '', ...env }, ...extra };
}

/** A fresh temp dir removed by the returned cleanup. */
export function tempDir(prefix = 'adt-ls-native-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Parsed events of a simulator trace file (`ADTLS_SIM_TRACE`). */
export function readTrace(file) {
  if (!existsSync(file)) return [];
  // Only whole lines: the simulator may be writing the last one while we read (a reader can
  // see part of a write in progress). A whole line that does not parse still throws.
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop();
  return lines.filter(Boolean).map((line) => JSON.parse(line));
}

/** Messages the simulator received (parsed JSON-RPC). */
export function incoming(trace) {
  return trace.filter((e) => e.dir === 'in' && e.message).map((e) => e.message);
}

/** The entries of a temp dir (default this process's) that look like ours (data, socket and
 * work dirs; `.sock` files of older versions). */
export function ourTempEntries(dir = tmpdir()) {
  return readdirSync(dir).filter((n) => /^adt-ls-(pipe-)?[0-9a-f]{12}(\.sock)?$/.test(n) || n.startsWith('adt-ls-client-'));
}

/** A fresh, empty temp dir for a child process's TMPDIR. */
export function childTmp() {
  return mkdtempSync(join(TEST_TMP, 'child-'));
}

/**
 * Pids of running (not zombie) simulator processes started with a given marker in their
 * environment: from /proc on Linux, else from `ps` with the environment (macOS, BSDs).
 */
export function simulatorPids(marker) {
  return existsSync('/proc/self/environ') ? procPids(marker) : psPids(marker);
}

/** simulatorPids through /proc (Linux). */
export function procPids(marker) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && env.split('\0').includes(`ADTLS_TEST_MARKER=${marker}`)) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile, or is not ours to read
    }
  }
  return pids;
}

/**
 * simulatorPids through `ps axwwe` (BSD syntax, the same on macOS and Linux procps): each
 * line is pid, state, then the command line followed by the environment.
 */
export function psPids(marker) {
  const out = execFileSync('ps', ['axwwe', '-o', 'pid=,stat=,command='], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const needle = `ADTLS_TEST_MARKER=${marker}`;
  const pids = [];
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s(.*)$/.exec(line);
    if (!m || m[2].startsWith('Z') || Number(m[1]) === process.pid) continue;
    if (m[3].split(' ').includes(needle)) pids.push(Number(m[1]));
  }
  return pids;
}

/** A unique marker to find the processes a test started. */
export function marker() {
  return `m${process.pid}-${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

/** Wait until `check()` is truthy, at most `ms`. */
export async function until(check, ms = 3000, step = 25) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, step));
  }
}

/** Measure how long a promise takes to settle. */
export async function timed(promise) {
  const t0 = Date.now();
  try {
    const value = await promise;
    return { ok: true, value, ms: Date.now() - t0 };
  } catch (error) {
    return { ok: false, error, ms: Date.now() - t0 };
  }
}
