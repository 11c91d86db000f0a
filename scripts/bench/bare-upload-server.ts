/**
 * The upload bench's anchor: the least a server on this machine can do with the same parts. A
 * bare `node:http` server (no Fastify, no database, no grant, no size check) that streams each
 * `PUT /part?start=N` body into the file BARE_UPLOAD_FILE at offset N, as the local store writes a
 * part, and answers an ETag. The bench sends it the same parts, with the same client and the same
 * parts in flight, as it sends the real server: what the real server adds is the difference.
 *
 * Under it, on SOCKET_PORT, the floor of any Node.js receiver: raw TCP, no HTTP at all. Each
 * connection sends its offset in the file (8 bytes, a big-endian double), then its bytes, and
 * half-closes; the answer `ok` comes once they are written.
 *
 * Env: PORT, SOCKET_PORT, BARE_UPLOAD_FILE (created empty by the bench).
 */
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createSocketServer, type Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';

const file = process.env.BARE_UPLOAD_FILE!;
const MIB = 1024 * 1024;
let parts = 0;

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bench');
  if (request.method === 'GET' && url.pathname === '/api/health') {
    response.end('{"status":"ok"}');
    return;
  }
  if (request.method !== 'PUT' || url.pathname !== '/part') {
    response.statusCode = 404;
    response.end();
    return;
  }
  const start = Number(url.searchParams.get('start'));
  // The same write batching as the local store (up to 1 MiB per writev).
  pipeline(request, createWriteStream(file, { flags: 'r+', start, highWaterMark: MIB })).then(
    () => {
      parts += 1;
      response.setHeader('etag', `"part-${parts}"`);
      response.end();
    },
    (error: Error) => {
      response.statusCode = 500;
      response.end(error.message);
    },
  );
});
server.listen(Number(process.env.PORT), '127.0.0.1');

/** The connection's offset header, once its 8 bytes have arrived. */
const offsetOf = (socket: Socket) =>
  new Promise<number>((resolve) => {
    const read = () => {
      const head = socket.read(8) as Buffer | null;
      if (head) resolve(head.readDoubleBE(0));
      else socket.once('readable', read);
    };
    read();
  });

const socketServer = createSocketServer({ allowHalfOpen: true }, (socket) => {
  void offsetOf(socket)
    .then((start) =>
      pipeline(socket, createWriteStream(file, { flags: 'r+', start, highWaterMark: MIB })),
    )
    .then(
      () => socket.end('ok'),
      () => socket.destroy(),
    );
});
socketServer.listen(Number(process.env.SOCKET_PORT), '127.0.0.1');

process.on('SIGTERM', () => {
  socketServer.close();
  server.close(() => process.exit(0));
});
