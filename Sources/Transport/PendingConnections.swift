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
    private let isExempt: @Sendable (SocketAddress) -> Bool
    /// Per address (without port), the pending connections oldest first.
    private let state = Mutex<[SocketAddress: [ConnectionHandle]]>([:])

    init(capPerAddress: Int, isExempt: @escaping @Sendable (SocketAddress) -> Bool) {
        self.capPerAddress = capPerAddress
        self.isExempt = isExempt
    }

    /// Whether a new connection from `peer` would pass the address's cap.
    func isOverCap(_ peer: SocketAddress) -> Bool {
        guard capPerAddress > 0, !isExempt(peer) else { return false }
        let key = peer.withoutPort
        return state.withLock { $0[key]?.count ?? 0 } >= capPerAddress
    }

    /// Counts a connection just registered.
    func add(_ peer: SocketAddress, _ handle: ConnectionHandle) {
        state.withLock { $0[peer.withoutPort, default: []].append(handle) }
    }

    /// Takes a connection off the count (it upgrades or closes).
    ///
    /// - Returns: false when it was no longer counted: claimed for eviction, so it must not upgrade.
    func remove(_ peer: SocketAddress, _ handle: ConnectionHandle) -> Bool {
        let key = peer.withoutPort
        return state.withLock { byAddress in
            guard var handles = byAddress[key], let index = handles.firstIndex(of: handle) else { return false }
            handles.remove(at: index)
            byAddress[key] = handles.isEmpty ? nil : handles
            return true
        }
    }

    /// For a new connection from `peer` when the server is full: the oldest pending connection of the address
    /// holding the most, taken off the count, when that address holds at least two more than `peer` (so the
    /// newcomer does not become the largest holder in turn and two addresses never evict each other back and
    /// forth). nil: the newcomer is refused.
    func claimVictim(for peer: SocketAddress) -> ConnectionHandle? {
        let key = peer.withoutPort
        return state.withLock { byAddress in
            let own = byAddress[key]?.count ?? 0
            guard let (largest, handles) = byAddress.max(by: { $0.value.count < $1.value.count }),
                  handles.count >= own + 2 else { return nil }
            var rest = handles
            let victim = rest.removeFirst()
            byAddress[largest] = rest.isEmpty ? nil : rest
            return victim
        }
    }

    /// Pending connections from `peer`'s address (tests, diagnostics).
    func count(_ peer: SocketAddress) -> Int {
        state.withLock { $0[peer.withoutPort]?.count ?? 0 }
    }
}
