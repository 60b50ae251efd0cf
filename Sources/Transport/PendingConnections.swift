import Synchronization

/// The connections a server accepted that have not upgraded to a WebSocket (HTTP requests, handshakes under way,
/// idle keep-alive connections), by peer address, shared by every event loop of the server.
///
/// Two rules keep one address from holding every slot of `--max-connections` with sockets it never uses:
/// - a cap per address (`capPerAddress`): beyond it new connections from that address are refused, except from
///   exempt addresses (loopback, trusted proxies: they carry many clients and limit them themselves);
/// - fair eviction when the server is full: a connection from an address holding few pending connections takes
///   the slot of the oldest pending connection of the address holding the most (`claimVictim`), instead of
///   being refused. The address that filled the server loses its own idle sockets, not the others their turn.
///
/// Only pending connections are counted or evicted: a player whose WebSocket is open is never closed for
/// another. A connection upgrading is taken off (`remove`); one claimed for eviction first can no longer upgrade.
/// The check of the cap and the count that follows it are separate steps, so loops accepting from one address at
/// the same moment may pass the cap by at most one connection each.
final class PendingConnections: Sendable {
    /// 0: no cap, only eviction when the server is full.
    let capPerAddress: Int
    /// IPv6 peers are counted per network of this many leading bits (`SocketAddress.network`).
    let ipv6PrefixBits: Int
    private let isExempt: @Sendable (SocketAddress) -> Bool
    /// Per address (without port), the pending connections with the order in which they came: a dictionary, so
    /// that the common steps (a connection counted, then upgrading or closing) cost O(1) even when a local load
    /// test holds thousands at once; only the rare eviction looks for the oldest.
    private struct State {
        var byAddress: [SocketAddress: [ConnectionHandle: UInt64]] = [:]
        var nextOrder: UInt64 = 0
    }

    private let state = Mutex(State())

    init(capPerAddress: Int, ipv6PrefixBits: Int = 64, isExempt: @escaping @Sendable (SocketAddress) -> Bool) {
        self.capPerAddress = capPerAddress
        self.ipv6PrefixBits = ipv6PrefixBits
        self.isExempt = isExempt
    }

    /// Whether a new connection from `peer` would pass the address's cap.
    func isOverCap(_ peer: SocketAddress) -> Bool {
        guard capPerAddress > 0, !isExempt(peer) else { return false }
        let key = peer.network(ipv6PrefixBits: ipv6PrefixBits)
        return state.withLock { $0.byAddress[key]?.count ?? 0 } >= capPerAddress
    }

    /// Counts a connection just registered.
    func add(_ peer: SocketAddress, _ handle: ConnectionHandle) {
        let key = peer.network(ipv6PrefixBits: ipv6PrefixBits)
        state.withLock { state in
            state.byAddress[key, default: [:]][handle] = state.nextOrder
            state.nextOrder += 1
        }
    }

    /// Takes a connection off the count (it upgrades or closes).
    ///
    /// - Returns: false when it was no longer counted: claimed for eviction, so it must not upgrade.
    func remove(_ peer: SocketAddress, _ handle: ConnectionHandle) -> Bool {
        let key = peer.network(ipv6PrefixBits: ipv6PrefixBits)
        return state.withLock { state in
            guard state.byAddress[key]?.removeValue(forKey: handle) != nil else { return false }
            if state.byAddress[key]?.isEmpty == true { state.byAddress[key] = nil }
            return true
        }
    }

    /// For a new connection from `peer` when the server is full: the oldest pending connection of the address
    /// holding the most, taken off the count, when that address holds at least two more than `peer` (so the
    /// newcomer does not become the largest holder in turn and two addresses never evict each other back and
    /// forth). nil: the newcomer is refused.
    func claimVictim(for peer: SocketAddress) -> ConnectionHandle? {
        let key = peer.network(ipv6PrefixBits: ipv6PrefixBits)
        return state.withLock { state in
            let own = state.byAddress[key]?.count ?? 0
            guard let (largest, handles) = state.byAddress.max(by: { $0.value.count < $1.value.count }),
                  handles.count >= own + 2, let victim = handles.min(by: { $0.value < $1.value })?.key else {
                return nil
            }
            state.byAddress[largest]?.removeValue(forKey: victim)
            return victim
        }
    }

    /// Pending connections from `peer`'s address (tests, diagnostics).
    func count(_ peer: SocketAddress) -> Int {
        state.withLock { $0.byAddress[peer.network(ipv6PrefixBits: ipv6PrefixBits)]?.count ?? 0 }
    }
}
