import WebSocket

/// The HTTP/1.1 side of a connection: pipelined request heads, responses now or later, and the upgrade.
extension EventLoop {
    /// Request-head bytes just read: handled from the read buffer unless part of a head is already waiting.
    func receiveRequests(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        if connection.inbound.isEmpty {
            processRequests(bytes, on: connection)
        } else {
            connection.inbound.append(contentsOf: bytes)
            processPendingRequests(on: connection)
        }
    }

    /// A response the application produced later (`HTTPReply.deferred` or `.later`), then the requests
    /// pipelined behind it.
    func responseArrived(_ response: HTTPResponse, on connection: Connection, keepAlive: Bool, headOnly: Bool) {
        guard connection.machine.responseArrived() else { return }
        respond(response, on: connection, keepAlive: keepAlive, headOnly: headOnly)
        if connection.machine.phase == .requestHead, !connection.inbound.isEmpty {
            processPendingRequests(on: connection)
        }
    }

    private func processPendingRequests(on connection: Connection) {
        var pending: [UInt8] = []
        swap(&pending, &connection.inbound)
        pending.withUnsafeMutableBytes { processRequests($0, on: connection) }
    }

    /// Handles as many complete request heads as `bytes` holds; keeps an incomplete rest in `inbound`.
    private func processRequests(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        var offset = 0
        while offset < bytes.count, connection.machine.phase == .requestHead {
            let rest = UnsafeMutableRawBufferPointer(rebasing: bytes[offset...])
            let parsed: (head: HTTPRequestHead, length: Int)?
            do {
                parsed = try HTTPRequestHead.parse(UnsafeRawBufferPointer(rest),
                                                   maxLength: configuration.maxRequestHeadBytes)
            } catch {
                counters.badRequests += 1
                let message = error.status == 431
                    ? "The request head is larger than \(configuration.maxRequestHeadBytes) bytes."
                    : "Malformed HTTP request: \(error)."
                finish(connection, with: .text(message, status: error.status))
                return
            }
            guard let (head, length) = parsed else {
                connection.inbound.append(contentsOf: rest)
                return
            }
            offset += length
            if WebSocketHandshake.isUpgradeRequest(head) {
                upgrade(connection, request: head, headLength: length,
                        leftover: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
                return
            }
            // `parse` refused ambiguous lengths (RFC 9112 §6.3), so the body is surely empty when this passes, and a
            // refused body is never read as the next request: the connection closes after the 413.
            if (head.contentLength ?? 0) > 0 || head.value(of: "transfer-encoding") != nil {
                finish(connection, with: .text("This server accepts no request bodies.", status: 413))
                return
            }
            counters.httpRequests += 1
            let keepAlive = head.keepAlive && !isShuttingDown
            let headOnly = head.method == "HEAD"
            switch application.respond(to: head, from: connection.peer) {
            case .now(let response):
                respond(response, on: connection, keepAlive: keepAlive, headOnly: headOnly)
            case .deferred(let start):
                connection.machine.awaitResponse()
                let (fd, generation) = (connection.fd, connection.generation)
                start { response in
                    self.submit(.httpResponse(fd: fd, generation: generation, response: response,
                                              keepAlive: keepAlive, headOnly: headOnly))
                }
            case .later(let produce):
                connection.machine.awaitResponse()
                let (fd, generation) = (connection.fd, connection.generation)
                Task {
                    let response = await produce()
                    self.submit(.httpResponse(fd: fd, generation: generation, response: response,
                                              keepAlive: keepAlive, headOnly: headOnly))
                }
            }
        }
        if offset < bytes.count, connection.machine.phase == .awaitingResponse {
            connection.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    private func respond(_ response: HTTPResponse, on connection: Connection, keepAlive: Bool, headOnly: Bool) {
        let bytes = response.serialized(keepAlive: keepAlive, headOnly: headOnly)
        run(connection.machine.respond(bytes, keepAlive: keepAlive, now: nowMillis, timeouts: timeouts), on: connection)
    }

    /// Sends a final response, then closes.
    private func finish(_ connection: Connection, with response: HTTPResponse) {
        finish(connection, with: response.serialized(keepAlive: false))
    }

    private func finish(_ connection: Connection, with bytes: [UInt8]) {
        run(connection.machine.finish(with: bytes, now: nowMillis, timeouts: timeouts), on: connection)
    }

    /// The permessage-deflate agreement for an upgrade request, if the endpoint uses compression and the client
    /// made an acceptable offer (RFC 7692 §5.1). A header that does not parse declines every offer: the server
    /// may always go on without the extension.
    static func negotiateCompression(_ request: HTTPRequestHead,
                                     _ compression: WebSocketCompression) -> PerMessageDeflate.Agreement? {
        guard compression != .off, let offers = try? ExtensionOffer.offers(in: request), !offers.isEmpty else {
            return nil
        }
        switch compression {
        case .off:
            return nil
        case .perConnection:
            return PerMessageDeflate.accept(offers, resetClientContext: false)
        case .sharedStreams(let windowBits):
            return PerMessageDeflate.accept(offers, resetClientContext: true, serverWindowBits: windowBits)
        }
    }

    private func upgrade(_ connection: Connection, request: HTTPRequestHead, headLength: Int,
                         leftover: UnsafeMutableRawBufferPointer) {
        guard !isShuttingDown else {
            counters.handshakeFailures += 1
            finish(connection, with: .text("The server is shutting down.", status: 503))
            return
        }
        // Taken off the pending count before the answer: from here it either opens or closes.
        guard leavePending(connection) else {
            counters.handshakeFailures += 1
            finish(connection, with: .text("The server is full. Try again in a moment.", status: 503))
            return
        }
        if let refusal = application.refuseUpgrade(request, from: connection.peer) {
            counters.handshakeFailures += 1
            finish(connection, with: refusal)
            return
        }
        guard let endpoint = application.webSocketEndpoint(for: request.path) else {
            counters.handshakeFailures += 1
            finish(connection, with: .text("No WebSocket endpoint at \(request.path).", status: 404))
            return
        }
        let agreement = Self.negotiateCompression(request, endpoint.compression)
        switch WebSocketHandshake.serverResponse(to: request, extensions: agreement?.response.headerValue) {
        case .reject(let response, _):
            counters.handshakeFailures += 1
            finish(connection, with: response)
        case .accept(let response):
            counters.handshakeBytesIn += headLength
            counters.handshakeBytesOut += response.count
            connection.session = WebSocketSession(role: .server, maxMessageBytes: endpoint.maxMessageBytes,
                                                  compression: agreement != nil)
            if let agreement {
                counters.compressedConnections += 1
                connection.compression = sharedCompression(agreement, mode: endpoint.compression)
            }
            connection.endpoint = endpoint
            connection.inbound = []
            // Room for a reply as big as the largest message accepted, on top of the normal allowance.
            run(connection.machine.upgrade(response: response, extraOutbound: endpoint.maxMessageBytes), on: connection)
            endpoint.didOpen(connection, request: request)
            if !leftover.isEmpty, connection.machine.isOpen {
                receiveFrames(leftover, on: connection)
            }
        }
    }
}
