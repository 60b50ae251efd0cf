#if canImport(Glibc)
import Glibc
#endif
import CLinux
import WebSocket

/// Client connections (the load tester's): a non-blocking connect, the opening handshake's request, and the
/// check of the server's 101.
extension EventLoop {
    /// Opens a client WebSocket connection; `endpoint` hears `didOpen`, messages and `didClose`, or
    /// `connectionFailed`. Callable from any thread.
    ///
    /// - Parameters:
    ///   - compression: offer permessage-deflate (RFC 7692) with this compressor size; when the server accepts,
    ///     messages are compressed both ways as agreed.
    ///   - localAddress: a numeric address of this host to connect from (its port is still chosen by the
    ///     kernel, at `connect`), or nil to let the kernel choose both. Thousands of connections to one
    ///     server from one address make each `connect` search that address's ports past every connection
    ///     and TIME_WAIT to the same server; spread over several addresses, each search is short.
    public func connect(address: String, port: Int, path: String, hostHeader: String,
                        endpoint: any WebSocketEndpoint, compression: ClientCompression? = nil,
                        localAddress: String? = nil) {
        submit(.connect(ClientConnection(address: address, port: port, path: path, hostHeader: hostHeader,
                                         endpoint: endpoint, compression: compression,
                                         localAddress: localAddress)))
    }

    func startConnecting(_ request: ClientConnection) {
        guard let (address, length, family) = SocketAddress.numeric(host: request.address, port: request.port) else {
            request.endpoint.connectionFailed(reason: "'\(request.address)' is not a numeric address")
            return
        }
        let fd: Int32
        do {
            fd = try Syscall.tcpSocket(family: family)
        } catch {
            counters.acceptFailures += 1
            request.endpoint.connectionFailed(reason: "\(error)")
            return
        }
        do {
            try Syscall.disableNagle(fd)
            if let local = request.localAddress {
                guard let (from, fromLength, fromFamily) = SocketAddress.numeric(host: local, port: 0),
                      fromFamily == family else {
                    Syscall.close(fd)
                    request.endpoint.connectionFailed(reason: "'\(local)' is not a local address of the server's family")
                    return
                }
                try Syscall.bindForConnect(fd, to: from, length: fromLength, family: family)
            }
            _ = try Syscall.connect(fd, to: address, length: length)
        } catch {
            Syscall.close(fd)
            request.endpoint.connectionFailed(reason: "\(error)")
            return
        }
        nextGeneration &+= 1
        let machine = ConnectionMachine(connectingAt: nowMillis, timeouts: timeouts,
                                        outboundLimit: configuration.maxOutboundBytes)
        let connection = Connection(fd: fd, generation: nextGeneration, loop: self, peer: SocketAddress(address),
                                    machine: machine)
        connection.endpoint = request.endpoint
        let key = WebSocketHandshake.randomKey()
        let sent = ClientHandshake(key: key, compression: request.compression)
        let extensions = request.compression.map { [("Sec-WebSocket-Extensions", $0.offer.headerValue)] } ?? []
        let handshake = WebSocketHandshake.clientRequest(host: request.hostHeader, path: request.path, key: key,
                                                         extraHeaders: extensions)
        sent.requestBytes = handshake.count
        connection.clientHandshake = sent
        connection.outbound.append(shared: handshake)
        connection.wantsWritable = true
        guard watch(connection, events: EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue) else {
            request.endpoint.connectionFailed(reason: "epoll cannot watch the socket")
            return
        }
    }

    /// The socket became writable or failed: `connect` finished, one way or the other.
    func finishConnecting(_ connection: Connection) {
        let error: Int32
        do {
            error = try Syscall.pendingError(connection.fd)
        } catch let failure {
            error = failure.errno
        }
        run(connection.machine.connected(pendingError: error, reason: "connect: \(String(cString: strerror(error)))"),
            on: connection)
    }

    /// Checks what arrived of the server's answer; opens the WebSocket once a valid 101 is complete.
    func finishClientHandshake(_ connection: Connection) {
        let offered = connection.clientHandshake?.compression
        let result = connection.inbound.withUnsafeBytes { bytes in
            Result { () throws(WebSocketHandshake.HandshakeError) in
                try WebSocketHandshake.validateServerResponse(bytes, key: connection.clientHandshake?.key ?? "",
                                                              offeredDeflate: offered?.offer)
            }
        }
        switch result {
        case .success(nil):
            return
        case .success(let acceptance?):
            var rest = Array(connection.inbound[acceptance.length...])
            connection.inbound = []
            counters.handshakeBytesIn += acceptance.length
            counters.handshakeBytesOut += connection.clientHandshake?.requestBytes ?? 0
            connection.clientHandshake = nil
            guard let endpoint = connection.endpoint else { return }
            if let agreed = acceptance.deflate, let offered {
                counters.compressedConnections += 1
                connection.compression = ConnectionCompression(client: agreed, options: offered)
            }
            connection.session = WebSocketSession(role: .client, maxMessageBytes: endpoint.maxMessageBytes,
                                                  compression: acceptance.deflate != nil)
            run(connection.machine.clientHandshakeCompleted(extraOutbound: endpoint.maxMessageBytes), on: connection)
            endpoint.didOpen(connection, request: HTTPRequestHead(method: "GET", target: "/", headers: []))
            if !rest.isEmpty, connection.machine.isOpen {
                rest.withUnsafeMutableBytes { receiveFrames($0, on: connection) }
            }
        case .failure(let error):
            run(connection.machine.clientHandshakeFailed("handshake: \(error)"), on: connection)
        }
    }
}
