/// Limits and timeouts of the socket layer. Defaults suit a public game server.
public struct TransportConfiguration: Sendable {
    /// Numeric address to listen on; `"::"` takes IPv6 and IPv4 clients.
    public var host: String = "::"
    /// TCP port; 0 picks an ephemeral one.
    public var port: Int = 8080
    /// Event-loop threads, each owning its sockets.
    public var threads: Int = TransportConfiguration.processorCount
    /// Largest HTTP request head; bigger ones get 431.
    public var maxRequestHeadBytes: Int = 8192
    /// Time allowed for a complete request head after connecting (slow or half-sent requests are dropped),
    /// and for the next request on an idle keep-alive connection.
    public var requestTimeoutSeconds: Double = 10
    /// A WebSocket peer silent this long gets a ping.
    public var pingIntervalSeconds: Double = 30
    /// A pinged peer silent this much longer is dropped.
    public var pongTimeoutSeconds: Double = 20
    /// Time the peer has to answer our close frame before the TCP connection is closed anyway (RFC 6455 §7.1.1).
    public var closeTimeoutSeconds: Double = 3
    /// Bytes a connection may have waiting to be written; a consumer that falls further behind is closed.
    public var maxOutboundBytes: Int = 4 << 20
    /// A compressed message may inflate to at most this many times its size on the wire (beyond the first
    /// 64 KiB, which pass whatever the ratio), besides the message-size cap: bounds the work a deflate bomb
    /// buys. Deflate's own limit is about 1032:1; real text and JSON stay far below 100:1.
    public var maxInflateRatio = 256
    /// Open connections the server takes in all; beyond it new ones get `503` and are closed, instead of the
    /// accept loop failing on a lack of descriptors. 0 derives it from the open-files limit.
    public var maxConnections = 0
    /// Connections one peer address may hold before they upgrade to a WebSocket; beyond it new ones get `429` and
    /// are closed. 0: no cap. Either way, at `maxConnections` a new connection from an address holding few such
    /// connections takes the place of the oldest one of the address holding the most (see `PendingConnections`).
    public var maxPendingPerAddress = 0
    /// IPv6 peers count per network of this many leading bits for that cap (`SocketAddress.network`).
    public var pendingIPv6PrefixBits = 64
    /// Peers the cap above does not apply to: by default loopback (this machine: a local proxy or load test).
    public var isExemptFromPendingCap: @Sendable (SocketAddress) -> Bool = { $0.isLoopback }
    /// Bound on a graceful shutdown: clients get close 1001 and this long to answer.
    public var shutdownTimeoutSeconds: Double = 3
    /// At shutdown, the time a peer has to answer our close frame (instead of `closeTimeoutSeconds`), counted
    /// from the moment it is queued. A restart waits for the old process to exit, so the slowest peers kept
    /// every player waiting: in the reconnect storm, with the load generator's core busy, the answers took 0.4
    /// to 2.7 s. Their close frame was queued before anything else could be; only the TCP connection closes
    /// sooner.
    public var shutdownCloseTimeoutSeconds: Double = 1
    /// 0: an idle loop sleeps in `epoll_wait` until something happens. Otherwise it polls: it looks without
    /// waiting, and if nothing is ready sleeps this many microseconds before looking again. For a load tester
    /// on the same machine as the server: a loop asleep in `epoll_wait` must be woken for every message, and on
    /// loopback the sender pays that wake-up (an interrupt to the other core) in its own system call, a cost
    /// that clients on other machines never put on a server.
    public var pollMicroseconds = 0
    /// Reads the monotonic clock after each read into `EventLoop.readNanoseconds`: for a load tester, whose
    /// messages that came in one read arrived together, so one reading times them all (a clock reading per
    /// message was a twelfth of its time in the pipelined echo). Off on a server.
    public var timesReads = false

    public init() {}

    /// Cores this process may use: the online processors, or fewer when a cgroup CPU quota (a container
    /// limit, `/sys/fs/cgroup/cpu.max`) allows less.
    public static var processorCount: Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        guard let quota = cgroupCPUQuota() else { return online }
        return max(1, min(online, Int(quota.rounded(.up))))
    }

    /// `quota / period` from cgroup v2's `cpu.max` ("max 100000" means no quota).
    private static func cgroupCPUQuota() -> Double? {
        let fd = open("/sys/fs/cgroup/cpu.max", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { return nil }
        let fields = String(decoding: buffer[..<n], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let quota = Double(fields[0]), let period = Double(fields[1]), period > 0 else {
            return nil
        }
        return quota / period
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CLinux
