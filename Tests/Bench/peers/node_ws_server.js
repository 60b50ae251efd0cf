#!/usr/bin/env node
// A benchmark peer on Node's `ws` (Debian's node-ws, found under /usr/share/nodejs): the transport under
// Colyseus and Socket.IO, driven by the same wordrooms-bots runs as the WordRooms server.
//
//   /echo          every message back as it came (text as text, binary as binary)
//   /fanout/NAME   a topic per path: every message a client sends goes to every client of the topic, the
//                  sender included (ws's own broadcast idiom: client.send for each member)
//   anything else  HTTP 404
//
// Usage: NODE_PATH=/usr/share/nodejs node node_ws_server.js [--host 127.0.0.1] [--port 0]
// Prints "listening on HOST:PORT" on its first stdout line (the real port with --port 0); stops on SIGTERM and
// SIGINT. Node runs JavaScript on one thread; the library's defaults are kept (no permessage-deflate: ws leaves
// it off on servers unless asked), except the message size limit (16 MiB, as the Python peer).
'use strict';

const http = require('http');
const { WebSocketServer } = require('ws');

function option(name, fallback) {
    const index = process.argv.indexOf(name);
    return index >= 0 && index + 1 < process.argv.length ? process.argv[index + 1] : fallback;
}

const host = option('--host', '127.0.0.1');
const port = Number(option('--port', '8765'));
const FANOUT_PREFIX = '/fanout/';

const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024, clientTracking: false });
/** Topic name -> the set of its open sockets. */
const topics = new Map();

function serveEcho(socket) {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
}

function serveFanout(socket, name) {
    let members = topics.get(name);
    if (members === undefined) {
        members = new Set();
        topics.set(name, members);
    }
    members.add(socket);
    socket.on('message', (data, isBinary) => {
        for (const member of members) member.send(data, { binary: isBinary });
    });
    socket.on('close', () => {
        members.delete(socket);
        if (members.size === 0 && topics.get(name) === members) topics.delete(name);
    });
}

const server = http.createServer((request, response) => {
    response.writeHead(404, { 'Content-Type': 'text/plain' });
    response.end('WebSocket endpoints only: /echo and /fanout/NAME\n');
});

server.on('upgrade', (request, socket, head) => {
    const path = request.url.split('?')[0];
    const topic = path.startsWith(FANOUT_PREFIX) && path.length > FANOUT_PREFIX.length
        ? path.slice(FANOUT_PREFIX.length) : null;
    if (path !== '/echo' && topic === null) {
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
        if (topic === null) serveEcho(client); else serveFanout(client, topic);
    });
});

server.listen({ host, port, backlog: 4096 }, () => {
    const address = server.address();
    process.stdout.write(`listening on ${address.address}:${address.port} (node ${process.version})\n`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => process.exit(0));
}
