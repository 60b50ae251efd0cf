import Synchronization
import Transport

/// Open game connections per client address, shared by every event loop, so one address cannot hold more
/// than its share of the server.
final class ConnectionsPerAddress: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection from `address`; false (and nothing counted) when the address is at its limit.
    ///
    /// Loopback is not limited: it is this machine (a local load test, or a proxy not declared with
    /// `--trusted-proxy`, which then limits its clients itself).
    func admit(_ address: String) -> Bool {
        guard !Self.isLoopback(address) else { return true }
        return counts.withLock { counts in
            let current = counts[address, default: 0]
            guard current < limit else { return false }
            counts[address] = current + 1
            return true
        }
    }

    func release(_ address: String) {
        guard !Self.isLoopback(address) else { return }
        counts.withLock { counts in
            let remaining = counts[address, default: 0] - 1
            counts[address] = remaining > 0 ? remaining : nil
        }
    }

    /// Whether `address` is a numeric loopback address: 127.0.0.0/8 (also v4-mapped) or `::1`. Tested on the
    /// parsed bytes, not the text: `127.evil` or `127.0.0.1.example.com` is no address, so not loopback.
    static func isLoopback(_ address: String) -> Bool {
        SocketAddress(numericHost: address)?.isLoopback ?? false
    }

    func count(_ address: String) -> Int {
        counts.withLock { $0[address, default: 0] }
    }
}
