// The raw-JS floor for the hot-path benchmark: the least a JavaScript client on node:net can
// do for the same round trips against the same peer (bench/lsp-peer.mjs). It connects the way
// adt-ls does with our driver: the client LISTENS on a Unix socket (a named pipe on Windows),
// spawns the peer with `--pipe=<address>`, and accepts its connection. No vscode-jsonrpc, no
// logging, no timeouts: only framing, an id -> promise map and JSON.parse/stringify.
// Same surface as the drivers for what the benchmark uses: start(), sendRequest(), dispose().

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class FloorClient {
  /** `command args... --pipe=<address>` is spawned, like AdtLsDriver(binPath, { extraArgs }). */
  constructor(command, { extraArgs = [] } = {}) {
    this.command = command;
    this.extraArgs = extraArgs;
    this.nextId = 1;
    this.pending = new Map();
    this.chunks = [];
    this.buffered = 0;
    this.need = 0; // bytes needed before the next parse attempt is worth it
  }

  async start() {
    if (process.platform === 'win32') {
      this.address = `\\\\.\\pipe\\adt-ls-floor-${randomBytes(8).toString('hex')}`;
    } else {
      this.dir = mkdtempSync(join(tmpdir(), 'adt-ls-floor-'));
      this.address = join(this.dir, 'pipe.sock');
    }
    this.server = createServer();
    await new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.address, resolve);
    });
    const accepted = new Promise((resolve) => this.server.once('connection', resolve));
    this.child = spawn(this.command, [...this.extraArgs, `--pipe=${this.address}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise((_, reject) => this.child.once('exit', (code) => reject(new Error(`peer exited (${code}) before connecting`))));
    this.socket = await Promise.race([accepted, exited]);
    this.socket.setNoDelay?.(true);
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.on('error', () => {});
    const init = await this.sendRequest('initialize', { processId: process.pid, capabilities: {} });
    if (init?.serverInfo?.name !== 'ADTLS') throw new Error('not an adt-ls peer');
    this.notify('initialized', {});
  }

  write(message) {
    const body = JSON.stringify(message);
    this.socket.write(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`);
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  sendRequest(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  onData(chunk) {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.need) return; // a large body still arriving: concat once at the end
    let buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
    for (;;) {
      const headerEnd = buf.indexOf('\r\n\r\n');
      if (headerEnd < 0) break;
      const m = /content-length:\s*(\d+)/i.exec(buf.toString('latin1', 0, headerEnd));
      const end = headerEnd + 4 + Number(m?.[1] ?? 0);
      if (buf.length < end) {
        this.need = end;
        break;
      }
      const msg = JSON.parse(buf.toString('utf8', headerEnd + 4, end));
      buf = buf.subarray(end);
      this.need = 0;
      const p = this.pending.get(msg.id);
      if (p && msg.method === undefined) {
        this.pending.delete(msg.id);
        if (msg.error) p.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
        else p.resolve(msg.result);
      }
    }
    this.chunks = buf.length ? [buf] : [];
    this.buffered = buf.length;
  }

  async dispose() {
    if (!this.socket) return;
    const exited = new Promise((resolve) => (this.child.exitCode !== null ? resolve() : this.child.once('exit', resolve)));
    await Promise.race([this.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
    this.notify('exit');
    this.socket.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
    await new Promise((resolve) => this.server.close(resolve));
    for (const p of this.pending.values()) p.reject(new Error('disposed'));
    this.pending.clear();
    this.socket = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
