// adt-ls's local reentrance-ticket listener on 127.0.0.1. Its `/adt/redirect` handler
// WITHHOLDS the response until the reply to requestBrowserBasedLogon has arrived (`gate`),
// which reproduces the deadlock a client falls into when it awaits the delivery before
// answering `true`. Then it answers 302 and hands the ticket on.
import http from 'node:http';

/**
 * Starts the listener. `gate` resolves with the browser-logon reply (true / false);
 * `onDelivery()` is called when a delivery arrives, `onTicket(ticket)` after the gate
 * opened with `true`. Resolves `{port, close()}`.
 */
export function startRedirectListener({ gate, onDelivery, onTicket }) {
  const sockets = new Set();
  let port;
  let closed = false;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/adt/success') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<html><body>Logon successful. You can close this window.</body></html>');
    }
    if (url.pathname !== '/adt/redirect') {
      res.writeHead(404);
      return res.end();
    }
    const ticket = url.searchParams.get('reentrance-ticket');
    onDelivery?.();
    const accepted = await gate;
    if (closed) return res.destroy();
    if (!accepted) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return res.end('Logon was cancelled');
    }
    if (!ticket) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return res.end('No reentrance ticket received');
    }
    res.writeHead(302, { location: `http://localhost:${port}/adt/success`, 'content-length': 0 });
    res.end();
    return onTicket(ticket);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      port = server.address().port;
      resolve({
        port,
        close() {
          closed = true;
          server.close();
          for (const socket of sockets) socket.destroy();
        },
      });
    });
  });
}
