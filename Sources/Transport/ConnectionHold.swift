#if canImport(Glibc)
import Glibc
#endif
import Runtime
import Synchronization

/// Accepts connections on a thread of its own while the event loops do work that must come before any client is
/// served (restoring saved rooms), and keeps them unread until `release()` hands them to the loops.
///
/// Why not leave them in the kernel: a restart under load brings thousands of reconnects within a fraction of a
/// second, more than a listen backlog holds (Linux caps it at `net.core.somaxconn`, 4,096 by default). Every SYN
/// dropped there is sent again only a second later (RFC 6298's initial timeout), so a tenth of a second of
/// restoring became a second or more for every connection past the 4,096th. Accepting one costs a few
/// microseconds; its request waits in the socket's buffer until a loop reads it.
final class ConnectionHold: @unchecked Sendable {
    typealias Accepted = (fd: Int32, peer: SocketAddress)

    private let listeners: [Int32]
    private let stopFD: Int32
    /// Per listener, in accept order. Only the hold's thread touches it until `release` has joined that thread.
    private var held: [[Accepted]]
    private var thread: pthread_t?
    /// How many are held now, readable from any thread.
    let count = Atomic<Int>(0)

    /// - Parameter listeners: the loops' listening sockets (non-blocking), in loop order; they stay theirs.
    init(listeners: [Int32]) throws(SystemError) {
        self.listeners = listeners
        stopFD = try Syscall.eventFD()
        held = listeners.map { _ in [] }
    }

    deinit {
        Syscall.close(stopFD)
    }

    /// Starts accepting.
    func start() {
        precondition(thread == nil, "a hold starts once")
        thread = ProcessThread.start { [self] in run() }
    }

    /// Stops accepting and returns what was accepted, per listener: each loop takes its own listener's.
    func release() -> [[Accepted]] {
        guard let thread else { return listeners.map { _ in [] } }
        Syscall.signal(eventFD: stopFD)
        pthread_join(thread, nil)
        self.thread = nil
        defer {
            held = listeners.map { _ in [] }
            count.store(0, ordering: .relaxed)
        }
        return held
    }

    private func run() {
        var watched = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        watched.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0))
        var reportedShortage = false
        while true {
            let ready = poll(&watched, nfds_t(watched.count), -1)
            if ready < 0 {
                guard errno == EINTR else { return }
                continue
            }
            if watched[listeners.count].revents != 0 { return }
            for index in listeners.indices where watched[index].revents != 0 {
                if !acceptAll(from: index), !reportedShortage {
                    // Out of descriptors: the loops refuse the excess once they serve (see `Acceptor`); until
                    // then the rest waits in the backlog. Looked at again after a pause, not in a spin.
                    reportedShortage = true
                    Log.error("out of file descriptors while holding connections at start; raise the limit (ulimit -n)")
                }
            }
            if reportedShortage { usleep(10_000) }
        }
    }

    /// Accepts until the backlog is empty; false when the process ran out of descriptors.
    private func acceptAll(from index: Int) -> Bool {
        while true {
            do {
                guard case .processed(let accepted) = try Syscall.accept(listeners[index]) else { return true }
                held[index].append(accepted)
                count.add(1, ordering: .relaxed)
            } catch where error.errno == EMFILE || error.errno == ENFILE {
                return false
            } catch {
                // ECONNABORTED and the like: that peer is gone; the next may not be.
                return true
            }
        }
    }
}
