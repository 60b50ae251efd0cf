#if canImport(Glibc)
import Glibc
import Runtime
#endif

/// The server's resident memory and CPU time at one moment.
public struct ServerSample: Sendable, Equatable {
    public var residentBytes: Int?
    /// User plus system time.
    public var cpuSeconds: Double?
    /// The two parts of `cpuSeconds`, from `/proc/PID` only (`/metrics` gives the sum).
    public var cpuUserSeconds: Double? = nil
    public var cpuSystemSeconds: Double? = nil
    /// Monotonic nanoseconds when it was taken.
    public var takenAt: UInt64
    /// Where the figures came from (`/metrics` or `/proc/PID`), or why there are none.
    public var source: String
}

/// Reads the server's memory and CPU: from `GET /metrics` (Prometheus text) on the server's own port, or from
/// `/proc/PID` when the server has no metrics (the Python peer of the benchmarks) and runs on this machine.
///
/// Blocking; called from the driver thread only.
struct ServerSampler {
    let host: String
    let port: Int
    let pid: Int?

    func sample() -> ServerSample {
        let now = MonotonicClock.nanoseconds()
        if let pid {
            return Self.fromProc(pid: pid, takenAt: now)
        }
        switch Self.httpGet(host: host, port: port, path: "/metrics") {
        case .success(let body):
            let metrics = Self.parsePrometheus(body)
            return ServerSample(residentBytes: metrics["process_resident_memory_bytes"].map { Int($0) },
                                cpuSeconds: metrics["process_cpu_seconds_total"], takenAt: now, source: "/metrics")
        case .failure(let problem):
            return ServerSample(residentBytes: nil, cpuSeconds: nil, takenAt: now, source: "unavailable: \(problem)")
        }
    }

    /// Unlabelled samples of a Prometheus text exposition (`name value` lines), by name.
    static func parsePrometheus(_ text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, !fields[0].contains("{"), let value = Double(fields[1]) else { continue }
            values[String(fields[0])] = value
        }
        return values
    }

    /// RSS from `/proc/PID/statm` and user + system time from `/proc/PID/stat`.
    static func fromProc(pid: Int, takenAt: UInt64) -> ServerSample {
        let source = "/proc/\(pid)"
        guard let statm = readFile("/proc/\(pid)/statm"), let stat = readFile("/proc/\(pid)/stat") else {
            return ServerSample(residentBytes: nil, cpuSeconds: nil, takenAt: takenAt,
                                source: "unavailable: cannot read \(source)")
        }
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        let resident = pages.map { $0 * Int(sysconf(Int32(_SC_PAGESIZE))) }
        // Fields after the command name, which is in parentheses and may contain spaces: state is field 3,
        // utime and stime are fields 14 and 15 (proc(5)).
        var cpu: Double?
        var userSeconds: Double?
        var systemSeconds: Double?
        if let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) {
                let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
                cpu = (user + system) / ticks
                userSeconds = user / ticks
                systemSeconds = system / ticks
            }
        }
        return ServerSample(residentBytes: resident, cpuSeconds: cpu, cpuUserSeconds: userSeconds,
                            cpuSystemSeconds: systemSeconds, takenAt: takenAt, source: source)
    }

    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes.append(contentsOf: chunk[..<n])
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why an HTTP fetch failed.
    struct FetchError: Error, CustomStringConvertible {
        let description: String
    }

    /// `connect(2)` to an IPv4 or IPv6 socket address (`sockaddr_in`, `sockaddr_in6`).
    private static func connect<Address>(_ fd: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }

    /// A blocking `GET` with `Connection: close` and a five-second timeout; the body of a 200 response.
    static func httpGet(host: String, port: Int, path: String) -> Result<String, FetchError> {
        let isV6 = host.contains(":")
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(FetchError(description: "socket: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = connect(fd, to: address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = connect(fd, to: address)
        }
        guard connected == 0 else {
            return .failure(FetchError(description: "connect: \(String(cString: strerror(errno)))"))
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        var written = 0
        while written < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FetchError(description: "send: \(String(cString: strerror(errno)))"))
            }
            written += n
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while response.count < 4 << 20 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                response.append(contentsOf: chunk[..<n])
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 {
                return .failure(FetchError(description: "recv: \(String(cString: strerror(errno)))"))
            } else {
                break
            }
        }
        let separator: [UInt8] = [13, 10, 13, 10]  // CR LF CR LF: the end of the response head
        guard let headEnd = response.indices.dropLast(3).first(where: { response[$0..<$0 + 4].elementsEqual(separator) })
        else {
            return .failure(FetchError(description: "no HTTP response from \(path)"))
        }
        let statusLine = String(decoding: response[..<headEnd].prefix { $0 != 13 }, as: UTF8.self)
        guard statusLine.split(separator: " ").dropFirst().first == "200" else {
            return .failure(FetchError(description: "\(path) answered '\(statusLine)'"))
        }
        return .success(String(decoding: response[(headEnd + 4)...], as: UTF8.self))
    }
}
