#if canImport(Glibc)
import Glibc
#endif
import Deflate
import Foundation
import JSON
import WebSocket

/// A game-socket client that does permessage-deflate (RFC 7692) itself on a raw socket, so that what it checks does
/// not depend on the server's own framing code: it offers the extension as browsers do, checks the 101's answer,
/// compresses some of what it sends with its own zlib stream (reset after every message, as the server's
/// `client_no_context_takeover` asks, §7.1.1.2), parses every server frame, and inflates RSV1 messages with one
/// inflater that keeps its window from message to message (§7.2.2), as a browser does. It rebuilds the room state
/// from `welcome`, `snapshot` and `patch` as the web client does.
///
/// Every broken rule it sees (an RSV1 message that does not inflate, RSV1 on anything but a patch or on a
/// connection without compression, a patch out of sequence or that does not apply) throws `Violation` at once:
/// after a wrong inflate nothing later can be trusted.
final class DeflateRoomClient {
    /// A rule of the wire or of the protocol that the server broke, as this client saw it.
    struct Violation: Error, CustomStringConvertible {
        let description: String
    }

    /// How the client speaks permessage-deflate.
    enum Mode: CustomStringConvertible {
        /// Offers no extension: no frame may have RSV1 set (RFC 6455 §5.2).
        case plain
        /// Offers `permessage-deflate; client_max_window_bits`; inflates with a window of `inflaterBits` (11, as
        /// the server states, or 15, zlib's default that covers any window) and compresses with `deflaterBits`.
        case deflate(inflaterBits: Int, deflaterBits: Int)
        /// Also offers `server_max_window_bits=10`, less than the rooms' streams use: the server must agree to
        /// it and then never send this client a stream's compressed messages.
        case narrowDeflate(deflaterBits: Int)
        /// Also offers `server_no_context_takeover`: the stream's messages, which refer to earlier ones, cannot
        /// go to this client compressed either.
        case resettingDeflate(deflaterBits: Int)

        var description: String {
            switch self {
            case .plain: "plain"
            case .deflate(let inflaterBits, let deflaterBits): "deflate(in \(inflaterBits), out \(deflaterBits))"
            case .narrowDeflate(let deflaterBits): "deflate(server window 10, out \(deflaterBits))"
            case .resettingDeflate(let deflaterBits): "deflate(server no context takeover, out \(deflaterBits))"
            }
        }

        /// The `Sec-WebSocket-Extensions` offer, nil for none.
        var offer: String? {
            switch self {
            case .plain: nil
            case .deflate: "permessage-deflate; client_max_window_bits"
            case .narrowDeflate: "permessage-deflate; client_max_window_bits; server_max_window_bits=10"
            case .resettingDeflate: "permessage-deflate; server_no_context_takeover; client_max_window_bits"
            }
        }

        /// What the 101 must answer the offer with: game sockets have clients reset their context after each
        /// message and state the window of the rooms' streams (11 bits), or the offer's smaller limit.
        var requiredParameters: [String] {
            switch self {
            case .plain: []
            case .deflate: ["client_no_context_takeover", "server_max_window_bits=11"]
            case .narrowDeflate: ["client_no_context_takeover", "server_max_window_bits=10"]
            case .resettingDeflate:
                ["server_no_context_takeover", "client_no_context_takeover", "server_max_window_bits=11"]
            }
        }
    }

    let label: String
    let mode: Mode
    private let socket: TestClient
    /// The 101's `Sec-WebSocket-Extensions` value, if it had one.
    let extensionsHeader: String?
    private let deflater: Deflater?
    private let inflater: Inflater?
    private var inbound: [UInt8] = []
    /// A fragmented message being gathered: RSV1 of its first frame and the payload so far.
    private var fragments: (compressed: Bool, payload: [UInt8])?

    /// A room state and the seq it is at.
    typealias Replica = (seq: Int, state: JSONValue)

    // The replica, as the web client's store holds it.
    var state: JSONValue = .null
    var seq = 0
    private(set) var you: String?
    private(set) var token: String?
    private(set) var code: String?
    private(set) var inRoom = false
    private(set) var errors: [JSONValue] = []
    /// The errors that refused a `create` or `join` (other errors of earlier moves may arrive meanwhile).
    private var joinRefusals: [JSONValue] {
        errors.filter { ["join", "create"].contains($0["move"]?.stringValue ?? "") }
    }
    private(set) var lefts = 0
    private(set) var welcomes = 0
    /// Welcomes of a resume whose missed patches were replayed (no state).
    private(set) var resumedWelcomes = 0

    /// The server's close code (nil for a close without one).
    private(set) var closeCode: UInt16?
    private(set) var isClosed = false
    /// The server's side ended (EOF or reset) before a close frame reached us.
    private(set) var endedWithoutCloseFrame = false

    private(set) var compressedMessages = 0
    private(set) var plainMessages = 0
    /// The text of every message received, inflated when it came compressed, in order (for leak checks).
    private(set) var texts: [[UInt8]] = []
    private(set) var compressedSent = 0
    /// Compressed messages that inflate without any earlier window (fresh starts of the room's stream).
    private(set) var selfContainedMessages = 0
    private lazy var probe = try? Inflater(windowBits: 15)
    /// Patches that arrived after a welcome carrying the whole state (not the replays of a resume).
    private(set) var livePatches = 0
    private var afterFullWelcome = false
    /// After a welcome with the whole state, the room restarts its stream for the newcomer: on a compressing
    /// connection the next patch must come compressed.
    private var expectingFreshStart = false

    private var snapshotsRequested = 0
    /// Set during `switchRoomsWithoutWaiting`: the number of the snapshot that ends it.
    private var switchingUntilSnapshot: Int?
    private var snapshotsReceived = 0
    /// The snapshot answering the last `compareWithSnapshot` resync, kept apart from the replica, with the
    /// replica as it stood when the snapshot came: a patch read in the same batch after it must not count.
    private var comparison: (replica: Replica, snapshot: Replica)?
    private var comparing = false

    var compresses: Bool { deflater != nil }

    /// Whether the rooms' streams (11-bit windows) may be sent to this client compressed.
    var takesStreams: Bool {
        if case .deflate = mode { true } else { false }
    }

    /// Connects to `/ws` and completes the opening handshake, offering permessage-deflate unless `mode` is plain.
    ///
    /// - Parameter receiveBuffer: a small socket receive buffer makes a client that stops reading back up into
    ///   the server's queue quickly (a slow consumer).
    init(label: String, port: Int, mode: Mode, receiveBuffer: Int32? = nil) throws {
        self.label = label
        self.mode = mode
        socket = try TestClient(port: port, receiveBuffer: receiveBuffer)
        let key = WebSocketHandshake.randomKey()
        var headers: [(String, String)] = []
        if let offer = mode.offer {
            headers.append(("Sec-WebSocket-Extensions", offer))
        }
        try socket.send(WebSocketHandshake.clientRequest(host: "localhost:\(port)", path: "/ws", key: key,
                                                         extraHeaders: headers))
        var head: [UInt8] = []
        var byte: UInt8 = 0
        // Byte by byte: nothing after the head is consumed, so the frame reader starts at the first frame.
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let n = read(socket.fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { throw Violation(description: "\(label): connection ended inside the 101") }
            head.append(byte)
        }
        let text = String(decoding: head, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 101"), text.contains(WebSocketHandshake.acceptValue(forKey: key)) else {
            throw Violation(description: "\(label): handshake refused: \(text)")
        }
        var extensions: String?
        for line in text.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "sec-websocket-extensions" {
                extensions = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        extensionsHeader = extensions
        let windows: (inflater: Int, deflater: Int)
        switch mode {
        case .plain:
            guard extensions == nil else {
                throw Violation(description: "\(label): extensions accepted that were never offered: \(extensions!)")
            }
            deflater = nil
            inflater = nil
            return
        case .deflate(let inflaterBits, let deflaterBits): windows = (inflaterBits, deflaterBits)
        case .narrowDeflate(let deflaterBits): windows = (10, deflaterBits)
        case .resettingDeflate(let deflaterBits): windows = (11, deflaterBits)
        }
        let parameters = (extensions ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first == "permessage-deflate", mode.requiredParameters.allSatisfy(parameters.contains) else {
            throw Violation(description: "\(label): 101 answered the offer with \(extensions ?? "nothing")")
        }
        inflater = try Inflater(windowBits: windows.inflater)
        deflater = try Deflater(windowBits: windows.deflater, resetsContext: true)
    }

    deinit {
        socket.abort()
    }

    // MARK: Sending

    /// Sends a message in one masked frame, or two when `fragmented` (RFC 6455 §5.4); compressed when asked and
    /// negotiated (RSV1 on the first frame only, RFC 7692 §6.1).
    ///
    /// A connection the server has closed takes nothing more: the message is lost, as it would be for any client,
    /// and `isClosed` says so once the close frame is read.
    func send(_ message: JSONValue, compressed: Bool = false, fragmented: Bool = false) throws {
        guard !isClosed else { return }
        do {
            try write(message, compressed: compressed, fragmented: fragmented)
        } catch let failure as TestClient.Failure {
            // Closed by the server (a slow consumer is cut off): its close frame may be waiting to be read.
            while try pump(waitMillis: 100) {}
            guard isClosed else { throw failure }
        }
    }

    private func write(_ message: JSONValue, compressed: Bool, fragmented: Bool) throws {
        let json = JSONWriter().serialize(message)
        let useDeflate = compressed && deflater != nil
        let payload = useDeflate ? deflater!.compress(json) : json
        if useDeflate { compressedSent += 1 }
        if fragmented && payload.count >= 2 {
            let cut = payload.count / 2
            try socket.send(FrameEncoder.encode(.text, payload: payload[..<cut], fin: false, compressed: useDeflate,
                                                maskingKey: FrameEncoder.randomMaskingKey()))
            try socket.send(FrameEncoder.encode(.continuation, payload: payload[cut...], fin: true,
                                                maskingKey: FrameEncoder.randomMaskingKey()))
        } else {
            try socket.send(FrameEncoder.encode(.text, payload: payload, compressed: useDeflate,
                                                maskingKey: FrameEncoder.randomMaskingKey()))
        }
    }

    /// Gives the server's end of this connection a small, fixed send buffer, as a slow link would: a client that
    /// stops reading then backs up into the server's own queue within kilobytes rather than the megabytes a
    /// loopback socket's buffers grow to. The server runs in this process, so its socket is one of our file
    /// descriptors, found by its addresses (its peer is our local port, its local port the server's).
    ///
    /// - Returns: whether the socket was found.
    @discardableResult
    func shrinkServerSendBuffer(serverPort: Int, bytes: Int32 = 2048) -> Bool {
        guard let ours = Self.ports(of: socket.fd, peer: false) else { return false }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in descriptors {
            guard let fd = Int32(name), fd != socket.fd, Self.ports(of: fd, peer: true) == ours,
                  Self.ports(of: fd, peer: false) == UInt16(serverPort) else { continue }
            var size = bytes
            return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0
        }
        return false
    }

    /// The local or peer port of an IPv4 TCP socket.
    private static func ports(of fd: Int32, peer: Bool) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Drops the TCP connection without a close frame, as a lost network would.
    func abort() {
        socket.abort()
        isClosed = true
    }

    /// Takes over the replica a dropped connection had, as the web client keeps its store across reconnects.
    func adoptReplica(of other: DeflateRoomClient) {
        state = other.state
        seq = other.seq
    }

    // MARK: Receiving

    /// Reads what has arrived (waiting up to `waitMillis` for something) and handles every whole frame in it.
    ///
    /// - Returns: whether anything was read.
    @discardableResult
    func pump(waitMillis: Int32 = 0) throws -> Bool {
        guard !isClosed else { return false }
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitMillis) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 32 * 1024)
        let n = chunk.withUnsafeMutableBytes { read(socket.fd, $0.baseAddress!, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return false }
        if n <= 0 {
            // A slow consumer that is cut off and still does not read is dropped when its close handshake times
            // out: what was still queued, the close frame too, is lost (and a reset, which closing a socket with
            // our requests unread sends, discards what was in flight).
            endedWithoutCloseFrame = true
            isClosed = true
            return true
        }
        inbound.append(contentsOf: chunk[..<n])
        try parseFrames()
        return true
    }

    /// Handles everything that has already arrived.
    func drain() throws {
        while try pump() {}
    }

    /// Reads until `done` holds, for at most `timeoutSeconds` (a generous bound: nothing here is timed).
    func wait(for what: String, timeoutSeconds: Double = 15, _ done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while !done() {
            guard !isClosed else {
                throw Violation(description: "\(label): closed (\(closeCode.map(String.init) ?? "no code")) "
                                + "while waiting for \(what)")
            }
            guard Date() < deadline else { throw Violation(description: "\(label): no \(what) in \(timeoutSeconds) s") }
            try pump(waitMillis: 20)
        }
    }

    /// Joins (or resumes, with `token`) and waits for the `welcome`, or the `error` that refuses it.
    ///
    /// - Returns: the error when the join was refused.
    @discardableResult
    func join(_ message: JSONValue, compressed: Bool = false) throws -> JSONValue? {
        let (welcomesBefore, refusalsBefore) = (welcomes, joinRefusals.count)
        try send(message, compressed: compressed)
        try wait(for: "the answer to a join") { welcomes > welcomesBefore || joinRefusals.count > refusalsBefore }
        return welcomes > welcomesBefore ? nil : joinRefusals.last
    }

    /// Leaves the room and joins another (or the same) at once, without waiting for `left` in between: the
    /// server has the socket in the lobby as soon as it reads `leave`, so the new room's first messages (its
    /// stream's fresh start among them) may arrive before the old room's last ones. Patches carry no room code,
    /// so the replica is rebuilt from a snapshot afterwards; what this exercises is one connection taking two
    /// rooms' streams interleaved.
    ///
    /// - Returns: whether the join was accepted.
    func switchRoomsWithoutWaiting(_ join: JSONValue, compressed: Bool) throws -> Bool {
        let (leftsBefore, welcomesBefore, refusalsBefore) = (lefts, welcomes, joinRefusals.count)
        switchingUntilSnapshot = Int.max
        expectingFreshStart = false
        afterFullWelcome = false
        try send(["type": "leave"], compressed: compressed)
        try send(join, compressed: compressed)
        try wait(for: "left and the answer to a join") {
            lefts > leftsBefore && (welcomes > welcomesBefore || joinRefusals.count > refusalsBefore)
        }
        guard welcomes > welcomesBefore else {
            switchingUntilSnapshot = nil
            inRoom = false
            state = .null
            seq = 0
            code = nil
            return false
        }
        snapshotsRequested += 1
        switchingUntilSnapshot = snapshotsRequested
        try send(["type": "resync"], compressed: compressed)
        try wait(for: "the snapshot after switching rooms") { switchingUntilSnapshot == nil }
        return true
    }

    /// Asks for a snapshot without waiting for it (it replaces the replica when it comes).
    func requestSnapshot(compressed: Bool = false) throws {
        snapshotsRequested += 1
        try send(["type": "resync"], compressed: compressed)
    }

    /// Asks for a snapshot and returns it together with the replica as it stood just before it: every patch the
    /// room sent before the snapshot arrives before it, so the two must be equal.
    func compareWithSnapshot() throws -> (replica: Replica, snapshot: Replica) {
        comparing = true
        comparison = nil
        defer { comparing = false }
        try requestSnapshot()
        try wait(for: "a snapshot") { comparison != nil }
        return comparison!
    }

    private func parseFrames() throws {
        var offset = 0
        defer { inbound.removeSubrange(..<offset) }
        while !isClosed && inbound.count - offset >= 2 {
            let first = inbound[offset]
            let second = inbound[offset + 1]
            guard second & 0x80 == 0 else { throw violation("a masked server frame (RFC 6455 §5.1)") }
            var length = Int(second & 0x7F)
            var header = 2
            if length == 126 {
                guard inbound.count - offset >= 4 else { return }
                length = Int(inbound[offset + 2]) << 8 | Int(inbound[offset + 3])
                header = 4
            } else if length == 127 {
                guard inbound.count - offset >= 10 else { return }
                length = (2..<10).reduce(0) { $0 << 8 | Int(inbound[offset + $1]) }
                header = 10
            }
            guard inbound.count - offset >= header + length else { return }
            let payload = Array(inbound[(offset + header)..<(offset + header + length)])
            offset += header + length
            try handleFrame(fin: first & 0x80 != 0, rsv1: first & 0x40 != 0, otherReserved: first & 0x30,
                            opcode: first & 0x0F, payload: payload)
        }
    }

    private func handleFrame(fin: Bool, rsv1: Bool, otherReserved: UInt8, opcode: UInt8, payload: [UInt8]) throws {
        guard otherReserved == 0 else { throw violation("RSV2 or RSV3 set") }
        if opcode & 0x08 != 0 {
            // RFC 7692 §6.1: control frames never carry RSV1.
            guard !rsv1 else { throw violation("RSV1 on a control frame (opcode \(opcode))") }
            switch opcode {
            case 0x8:
                closeCode = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                socket.abort()
                isClosed = true
            case 0x9:
                try socket.sendFrame(.pong, payload)
            default:
                break
            }
            return
        }
        switch opcode {
        case 0x1:
            guard fragments == nil else { throw violation("a new text frame inside a fragmented message") }
            if fin {
                try deliver(payload, compressed: rsv1)
            } else {
                fragments = (rsv1, payload)
            }
        case 0x0:
            guard var message = fragments else { throw violation("a continuation frame outside a message") }
            // RFC 7692 §6.1: RSV1 is set on the first frame of a message only.
            guard !rsv1 else { throw violation("RSV1 on a continuation frame") }
            message.payload += payload
            if fin {
                fragments = nil
                try deliver(message.payload, compressed: message.compressed)
            } else {
                fragments = message
            }
        default:
            throw violation("a data frame of opcode \(opcode) (the protocol sends text only)")
        }
    }

    private func deliver(_ payload: [UInt8], compressed: Bool) throws {
        let text: [UInt8]
        if compressed {
            guard let inflater else { throw violation("RSV1 on a connection that negotiated no compression") }
            // Game sockets compress only the rooms' streams, which this client's limits rule out.
            guard takesStreams else { throw violation("RSV1 though the client's offer rules out the rooms' streams") }
            do {
                text = try inflater.decompress(payload, maxBytes: 1 << 22, resetContext: false)
            } catch {
                throw violation("compressed message \(compressedMessages + 1) did not inflate (\(error))")
            }
            compressedMessages += 1
            // A message that inflates alone (no window before it) is a fresh start of its stream, or very nearly:
            // with context takeover nearly every patch refers back to the ones before it.
            if let alone = try? probe?.decompress(payload, maxBytes: 1 << 22, resetContext: true), alone == text {
                selfContainedMessages += 1
            }
        } else {
            text = payload
            plainMessages += 1
        }
        texts.append(text)
        let message: JSONValue
        do {
            message = try JSONParser().parse(text)
        } catch {
            let start = String(decoding: text.prefix(120), as: UTF8.self)
            throw violation("not JSON (\(compressed ? "inflated" : "plain")): \(start)")
        }
        let type = message["type"]?.stringValue ?? ""
        // Only a room's patches travel in its shared stream; everything else must stay out of every window.
        guard !compressed || type == "patch" else { throw violation("a \(type) message came compressed") }
        try apply(message, type: type, compressed: compressed)
    }

    private func apply(_ message: JSONValue, type: String, compressed: Bool) throws {
        if let switching = switchingUntilSnapshot {
            // Two rooms' messages interleave until the old room's `left` and the new one's welcome are both in;
            // the replica starts again from the snapshot asked for after them.
            switch type {
            case "welcome":
                you = message["you"]?.stringValue
                token = message["token"]?.stringValue
                code = message["code"]?.stringValue
                welcomes += 1
            case "left":
                lefts += 1
            case "snapshot":
                snapshotsReceived += 1
                if snapshotsReceived == switching, let snapshotSeq = message["seq"]?.intValue,
                   let full = message["state"] {
                    switchingUntilSnapshot = nil
                    state = full
                    seq = snapshotSeq
                    inRoom = true
                }
            case "error":
                errors.append(message)
            default:
                break
            }
            return
        }
        switch type {
        case "welcome":
            guard let welcomeSeq = message["seq"]?.intValue else { throw violation("a welcome without seq") }
            you = message["you"]?.stringValue
            token = message["token"]?.stringValue
            code = message["code"]?.stringValue
            if let full = message["state"] {
                state = full
                seq = welcomeSeq
                expectingFreshStart = takesStreams
                afterFullWelcome = true
            } else {
                // A resumed welcome carries our own seq; the missed patches follow it.
                guard welcomeSeq == seq else { throw violation("resumed at seq \(welcomeSeq), replica at \(seq)") }
                expectingFreshStart = false
                afterFullWelcome = false
                resumedWelcomes += 1
            }
            inRoom = true
            welcomes += 1
        case "snapshot":
            guard let snapshotSeq = message["seq"]?.intValue, let full = message["state"] else {
                throw violation("a snapshot without seq or state")
            }
            snapshotsReceived += 1
            if comparing && snapshotsReceived == snapshotsRequested {
                comparison = ((seq, state), (snapshotSeq, full))
            } else {
                state = full
                seq = snapshotSeq
            }
        case "patch":
            guard inRoom else { throw violation("a patch outside a room") }
            guard let next = message["seq"]?.intValue, let ops = message["ops"] else {
                throw violation("a patch without seq or ops")
            }
            guard next == seq + 1 else { throw violation("patch \(next) after seq \(seq)") }
            do {
                try JSONPatch(json: ops).apply(to: &state)
            } catch {
                throw violation("patch \(next) does not apply: \(error)")
            }
            seq = next
            if afterFullWelcome { livePatches += 1 }
            if expectingFreshStart {
                expectingFreshStart = false
                guard compressed else {
                    throw violation("the first patch after a welcome came plain; the stream restarts for a newcomer")
                }
            }
        case "left":
            inRoom = false
            state = .null
            seq = 0
            code = nil
            lefts += 1
        case "error":
            errors.append(message)
        default:
            break
        }
    }

    private func violation(_ what: String) -> Violation {
        Violation(description: "\(label) [\(mode)]: \(what)")
    }
}
