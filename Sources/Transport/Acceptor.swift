#if canImport(Glibc)
import Glibc
#endif
import WebSocket

/// Takes new connections off one listening socket for its event loop, and refuses what the server cannot hold.
///
/// Two kinds of refusal: over the server-wide connection budget a peer gets a 503 and is closed; when the
/// process is out of descriptors, a spare one is freed to accept and close a peer instead of leaving it in the
/// backlog, where it would wake epoll forever.
struct Acceptor: ~Copyable {
    /// -1 once closed (and for loops that only connect out).
    private(set) var listenFD: Int32
    /// Held open so that one descriptor can be freed on EMFILE.
    private var spareFD: Int32
    /// Server-wide connection count; nil for client-only loops.
    private let budget: ConnectionBudget?

    /// The canned answer when the budget is spent.
    private static let busyResponse = HTTPResponse.text(
        "The server is at its connection limit. Try again in a moment.", status: 503).serialized(keepAlive: false)

    init(listenFD: Int32, budget: ConnectionBudget?) {
        self.listenFD = listenFD
        self.budget = budget
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
            if admit(accepted.fd, counters: &counters) { return accepted }
        }
    }

    /// Whether a connection accepted here or by a `ConnectionHold` fits the budget; if not, it is refused and
    /// closed. Admitted ones get `TCP_NODELAY`.
    func admit(_ fd: Int32, counters: inout TransportCounters) -> Bool {
        if let budget, !budget.acquire() {
            // Full: say so in one write (the socket buffer of a new connection has room) and close.
            counters.connectionsRefused += 1
            Self.busyResponse.withUnsafeBytes { bytes in
                // Best effort: a peer that cannot take 150 bytes is refused all the same.
                _ = try? Syscall.send(fd, bytes)
            }
            Syscall.close(fd)
            return false
        }
        do {
            try Syscall.disableNagle(fd)
        } catch {
            // The connection works without it, only with delayed small writes.
            Log.error("\(error)")
        }
        return true
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
