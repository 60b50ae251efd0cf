#if canImport(Glibc)
import Glibc
#endif
import CLinux
import WebSocket

/// What the loop does to its connections: registration, executing their machines' actions, and output.
extension EventLoop {
    /// Takes an accepted connection into the table and epoll.
    func register(fd: Int32, peer: SocketAddress) {
        nextGeneration &+= 1
        let machine = ConnectionMachine(acceptedAt: nowMillis, timeouts: timeouts,
                                        outboundLimit: configuration.maxOutboundBytes)
        let connection = Connection(fd: fd, generation: nextGeneration, loop: self, peer: peer, machine: machine)
        guard watch(connection, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue) else {
            acceptor.released()
            return
        }
        counters.accepted += 1
        if let pending = acceptor.pending {
            pending.add(peer, connection.handle)
            connection.isPending = true
        }
    }

    /// Takes `connection` off the server's pending connections (it upgrades or closes).
    ///
    /// - Returns: false when it had been claimed for eviction in the meantime (it must not upgrade).
    func leavePending(_ connection: Connection) -> Bool {
        guard connection.isPending else { return true }
        connection.isPending = false
        return acceptor.pending?.remove(connection.peer, connection.handle) ?? true
    }

    /// Closes a pending connection another loop's acceptor claimed to make room at the connection limit (see
    /// `PendingConnections.claimVictim`); nothing when it is gone already.
    func evictPending(_ victim: ConnectionHandle) {
        guard let connection = connections.lookup(victim.fd, victim.generation), connection.isPending else { return }
        // Already off the count: the claim removed it.
        connection.isPending = false
        counters.connectionsEvicted += 1
        run(connection.machine.hangUp(), on: connection)
    }

    /// Registers a new connection with epoll and the table; false (the socket closed) when epoll cannot take it.
    func watch(_ connection: Connection, events: UInt32) -> Bool {
        do {
            try Syscall.epollControl(epollFD, EPOLL_CTL_ADD, fd: connection.fd, events: events)
        } catch {
            Log.error("\(error)")
            Syscall.close(connection.fd)
            return false
        }
        connection.registeredEvents = events
        connections.insert(connection)
        return true
    }

    /// Executes what a connection's machine decided, in order.
    func run(_ actions: [ConnectionMachine.Action], on connection: Connection) {
        for action in actions {
            switch action {
            case .write(let bytes):
                connection.outbound.append(shared: bytes)
            case .sendClose(let code, let reason):
                if let frame = connection.session?.initiateClose(code: code, reason: reason) {
                    connection.outbound.append(shared: frame)
                }
            case .sendPing:
                // RFC 6455 §5.3: a client masks every frame, pings included, each with a fresh key.
                connection.outbound.append(shared: connection.isClient
                    ? FrameEncoder.encode(.ping, payload: [UInt8](), maskingKey: maskingKeys.next())
                    : Self.pingFrame)
            case .dropUnsentOutput:
                connection.outbound.dropAllButHead(pool: pool)
            case .stopParsing:
                connection.session = nil
                connection.inbound = []
            case .notifyClosed(let code):
                counters.recordClose(code)
                let endpoint = connection.endpoint
                connection.endpoint = nil
                endpoint?.didClose(connection, code: code)
                connection.context = nil
            case .reportFailure(let reason):
                let endpoint = connection.endpoint
                connection.endpoint = nil
                endpoint?.connectionFailed(reason: reason)
            case .flush:
                markDirty(connection)
            case .shutdownWrite:
                shutdownWrite(connection)
            case .destroy:
                destroy(connection)
            case .count(let counter):
                counters[keyPath: counter] += 1
            }
        }
    }

    func destroy(_ connection: Connection) {
        guard connections.holds(connection) else { return }
        connection.outbound.removeAll(pool: pool)
        connection.isDirty = false
        connections.remove(connection)
        _ = leavePending(connection)
        // Closing the descriptor also takes it out of epoll.
        Syscall.close(connection.fd)
        if !connection.isClient { acceptor.released() }
    }

    func shutdownWrite(_ connection: Connection) {
        do {
            try Syscall.shutdown(connection.fd, Int32(SHUT_WR))
        } catch {
            run(connection.machine.hangUp(), on: connection)
        }
    }

    // MARK: Writing

    /// Marks a connection to be flushed once the current event is handled, so the frames queued for it in the
    /// meantime (a broadcast, the replies to many pipelined messages) leave in one `writev`.
    @inline(__always)
    func markDirty(_ connection: Connection) {
        if !connection.isDirty {
            connection.isDirty = true
            dirty.append(connection)
        }
    }

    func flushDirty() {
        // A flush can queue more (a slow consumer's close frame): rounds until nothing is left.
        while !dirty.isEmpty {
            swap(&dirty, &flushing)
            for connection in flushing where connection.isDirty {
                flush(connection)
            }
            flushing.removeAll(keepingCapacity: true)
        }
    }

    func flush(_ connection: Connection) {
        connection.isDirty = false
        guard connections.holds(connection) else { return }
        let before = connection.outbound.count
        let drained: Bool
        do {
            drained = try connection.outbound.flush(fd: connection.fd, pool: pool, iovecs: iovecs)
        } catch {
            run(connection.machine.hangUp(), on: connection)
            return
        }
        counters.bytesOut += before - connection.outbound.count
        connection.wantsWritable = !drained
        // Checked after writing: a burst queued in one pass (the replies to a backlog read after a pause) that
        // the socket takes is not a reader that fell behind.
        if connection.machine.isTooSlow(queued: connection.outbound.count) {
            run(connection.machine.slowConsumer(now: nowMillis, timeouts: timeouts), on: connection)
            return
        }
        let next = connection.machine.flushed(queued: connection.outbound.count, drained: drained)
        updateInterest(connection)
        if next == .shutdownWrite { shutdownWrite(connection) }
    }

    /// Registers the epoll events the connection needs now, with a syscall only when they change.
    func updateInterest(_ connection: Connection) {
        var events = EPOLLRDHUP.rawValue
        if !connection.machine.readPaused { events |= EPOLLIN.rawValue }
        if connection.wantsWritable { events |= EPOLLOUT.rawValue }
        guard events != connection.registeredEvents else { return }
        do {
            try Syscall.epollControl(epollFD, EPOLL_CTL_MOD, fd: connection.fd, events: events)
            connection.registeredEvents = events
        } catch {
            // ENOMEM: the connection cannot be served as it needs; drop it rather than stall it.
            Log.error("\(error)")
            run(connection.machine.hangUp(), on: connection)
        }
    }
}
