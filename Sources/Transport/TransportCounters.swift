import WebSocket

/// Counts kept by one event loop; summed over loops for `/metrics`.
public struct TransportCounters: Sendable {
    public var accepted = 0
    public var acceptFailures = 0
    /// Connections answered 503 because the server was at its connection limit.
    public var connectionsRefused = 0
    /// Connections refused because their address held `maxPendingPerAddress` connections not yet upgraded.
    public var pendingOverCap = 0
    /// Pending connections closed at the connection limit to make room for a connection from another address.
    public var connectionsEvicted = 0
    public var httpRequests = 0
    public var badRequests = 0
    public var upgrades = 0
    /// Upgrades that negotiated permessage-deflate (RFC 7692).
    public var compressedConnections = 0
    public var handshakeFailures = 0
    public var requestTimeouts = 0
    public var pingTimeouts = 0
    public var slowConsumers = 0
    public var messagesIn = 0
    public var messagesOut = 0
    /// Bytes read from and written to sockets: everything, HTTP and WebSocket frames alike.
    public var bytesIn = 0
    public var bytesOut = 0
    /// The part of `bytesIn` and `bytesOut` that was WebSocket opening handshakes (RFC 6455 §4): the request and
    /// the 101 response of each upgrade that succeeded, either side. What is left of a WebSocket's bytes is its
    /// frames, which the load tester sets against the messages'.
    public var handshakeBytesIn = 0
    public var handshakeBytesOut = 0
    /// WebSocket closes by close code; key 1006 counts connections that ended without a close frame.
    public var closesByCode: [UInt16: Int] = [:]
    /// Connections open when the counters were read.
    public var openConnections = 0

    public init() {}

    mutating func recordClose(_ code: CloseCode?) {
        closesByCode[code?.rawValue ?? 1006, default: 0] += 1
    }

    /// Adds another loop's counts to these.
    public mutating func add(_ other: TransportCounters) {
        let sums: [WritableKeyPath<TransportCounters, Int>] = [
            \.accepted, \.acceptFailures, \.connectionsRefused, \.pendingOverCap, \.connectionsEvicted, \.httpRequests, \.badRequests, \.upgrades, \.compressedConnections,
            \.handshakeFailures, \.requestTimeouts, \.pingTimeouts, \.slowConsumers, \.messagesIn, \.messagesOut,
            \.bytesIn, \.bytesOut, \.handshakeBytesIn, \.handshakeBytesOut, \.openConnections,
        ]
        for counter in sums {
            self[keyPath: counter] += other[keyPath: counter]
        }
        closesByCode.merge(other.closesByCode, uniquingKeysWith: +)
    }
}
