#if canImport(Glibc)
import Glibc
#endif
import WebSocket

/// Takes new connections off one listening socket for its event loop, and refuses what the server cannot hold.
///
/// Three kinds of refusal: an address holding its cap of connections not yet upgraded gets a 429 and is closed;
/// over the server-wide connection budget a peer gets a 503 and is closed, unless it may take the place of
/// another address's idle connection (`PendingConnections`); when the process is out of descriptors, a spare one
/// is freed to accept and close a peer instead of leaving it in the backlog, where it would wake epoll forever.
struct Acceptor: ~Copyable {
    /// -1 once closed (and for loops that only connect out).
    private(set) var listenFD: Int32
    /// Held open so that one descriptor can be freed on EMFILE.
    private var spareFD: Int32
    /// Server-wide connection count; nil for client-only loops.
    private let budget: ConnectionBudget?
    /// The server's connections not yet upgraded, by address; nil for client-only loops.
    let pending: PendingConnections?

    /// The canned answer when the budget is spent.
    private static let busyResponse = HTTPResponse.text(
        "The server is at its connection limit. Try again in a moment.", status: 503).serialized(keepAlive: false)
    /// The canned answer to an address at its cap of pending connections.
    private static let overCapResponse = HTTPResponse.text(
        "Too many unfinished connections from your address. Close some and try again.",
        status: 429).serialized(keepAlive: false)

    init(listenFD: Int32, budget: ConnectionBudget?, pending: PendingConnections? = nil) {
        self.listenFD = listenFD
        self.budget = budget
        self.pending = pending
        self.spareFD = listenFD >= 0 ? Self.openSpare() : -1
    }

    deinit {
        if spareFD >= 0 { Syscall.close(spareFD) }
        if listenFD >= 0 { Syscall.close(listenFD) }
    }

    /// The next admitted connection (non-blocking, `TCP_NODELAY`), or nil once the backlog is empty or accepting
    /// failed for now (epoll says when to try again). Refused peers are counted and closed on the way.
    mutating func next(counters: inout TransportCounters) -> (fd: Int32, peer: SocketAddress)? {
        guard listenFD >= 0 else { return nil }
        while true {
            let accepted: (fd: Int32, peer: SocketAddress)
            do {
                guard case .processed(let result) = try Syscall.accept(listenFD) else { return nil }
                accepted = result
            } catch where error.errno == EMFILE || error.errno == ENFILE {
                refuseOneForLackOfDescriptors(counters: &counters)
                return nil
            } catch {
                // ENOBUFS, ENOMEM, EPERM (a firewall)...: transient.
                return nil
            }
            if admit(accepted.fd, peer: accepted.peer, counters: &counters) { return accepted }
        }
    }

    /// Whether a connection accepted here or by a `ConnectionHold` fits its address's cap and the budget; if
    /// not, it is refused and closed. Admitted ones get `TCP_NODELAY`.
    ///
    /// At the budget, a connection may still be admitted in place of another address's oldest pending
    /// connection: that one's loop closes it (`EventLoop.evictPending`), and its release gives the slot back.
    /// Until then the count is over the budget by the evictions under way, each claimed once.
    func admit(_ fd: Int32, peer: SocketAddress, counters: inout TransportCounters) -> Bool {
        if let pending, pending.isOverCap(peer) {
            counters.pendingOverCap += 1
            refuse(fd, with: Self.overCapResponse)
            return false
        }
        if let budget, !budget.acquire() {
            if let victim = pending?.claimVictim(for: peer) {
                budget.acquireOverLimit()
                victim.loop.execute { $0.evictPending(victim) }
            } else {
                counters.connectionsRefused += 1
                refuse(fd, with: Self.busyResponse)
                return false
            }
        }
        do {
            try Syscall.disableNagle(fd)
        } catch {
            // The connection works without it, only with delayed small writes.
            Log.error("\(error)")
        }
        return true
    }

    /// Says why in one write (the socket buffer of a new connection has room) and closes.
    private func refuse(_ fd: Int32, with response: [UInt8]) {
        response.withUnsafeBytes { bytes in
            // Best effort: a peer that cannot take 150 bytes is refused all the same.
            _ = try? Syscall.send(fd, bytes)
        }
        Syscall.close(fd)
    }

    /// Gives back the budget of a connection that was registered and is now closed.
    func released() {
        budget?.release()
    }

    /// Stops listening; the loop removed the socket from epoll first.
    mutating func close() {
        guard listenFD >= 0 else { return }
        Syscall.close(listenFD)
        listenFD = -1
    }

    private mutating func refuseOneForLackOfDescriptors(counters: inout TransportCounters) {
        counters.acceptFailures += 1
        if spareFD >= 0 {
            Syscall.close(spareFD)
            if case .processed(let refused)? = try? Syscall.accept(listenFD) {
                Syscall.close(refused.fd)
            }
            spareFD = Self.openSpare()
        }
        if counters.acceptFailures == 1 || counters.acceptFailures % 1000 == 0 {
            Log.error("out of file descriptors: refused a connection (\(counters.acceptFailures) so far); raise the limit (ulimit -n)")
        }
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
}
