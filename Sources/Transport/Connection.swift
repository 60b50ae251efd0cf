#if canImport(Glibc)
import Glibc
#endif
import CLinux
import WebSocket

/// One accepted TCP connection: an HTTP/1.1 exchange that may upgrade to a WebSocket.
///
/// Owned by one event loop and used only on its thread (`Connection` is deliberately not `Sendable`); other
/// threads reach it through its `handle`. Idle connections are kept small: no buffer is held while nothing is
/// partially read or waiting to be written, and the stored properties are declared in an order that leaves no
/// padding worth a word (Swift lays them out as declared): 240 bytes, which malloc serves from 256.
public final class Connection {
    let fd: Int32
    let generation: UInt32
    /// The loop outlives its connections, so no reference counting is needed to reach it.
    unowned(unsafe) let loop: EventLoop
    /// The peer's address, as seen on the socket.
    public let peer: SocketAddress

    /// Where the connection's life stands and what it decides next.
    // Unchecked: read or changed about 8 times per echoed message (phase, close pending, client side, read pause);
    // callgrind counted ~285 instructions of dynamic checks per echoed message on it (12% of 2,311).
    @exclusivity(unchecked) var machine: ConnectionMachine
    // The flags byte and the epoll events fill the bytes after `machine` (42 bytes) that the next word would
    // leave as padding: three separate Bools would push `registeredEvents` to the next word and the connection
    // past its 256-byte malloc chunk (ConnectionSizeTests).
    // Unchecked: marked dirty and flushed for every message sent; its checks were part of the ~360 instructions
    // per echoed message that `send` spent in checks (16% of 2,311, with `outbound` and `compression`).
    @exclusivity(unchecked) private var flags = Flags()
    /// The epoll events currently registered.
    var registeredEvents: UInt32 = 0
    /// The frame-level protocol state once the WebSocket is open, until no more frames are parsed.
    // Unchecked: changed for every frame parsed; ~105 instructions of checks per echoed message (4.5% of 2,311).
    @exclusivity(unchecked) var session: WebSocketSession?
    var endpoint: (any WebSocketEndpoint)?
    /// Bytes of a request head (or of a client's 101) that arrived incomplete; once the WebSocket is open, frames
    /// read but left for the connection's next turn (see `EventLoop.turnBudget`); empty (unallocated) otherwise.
    // Unchecked: looked at on every read (leftover frames); ~19 instructions of checks per echoed message (0.8%).
    @exclusivity(unchecked) var inbound: [UInt8] = []
    // Unchecked: appended to for every message sent and consumed by every flush: ~170 instructions of checks per
    // echoed message (7% of 2,311) and, with `machine`, most of the ~7,700 per Snowman move that the fan-out's
    // `send(frame:)` and `flush` spent in checks (6% of 129,765).
    @exclusivity(unchecked) var outbound = OutboundQueue()
    /// Output is waiting for the socket to become writable.
    var wantsWritable: Bool {
        get { flags.contains(.wantsWritable) }
        set { flags.set(.wantsWritable, newValue) }
    }
    /// In the loop's list of connections to flush after the current event.
    var isDirty: Bool {
        get { flags.contains(.isDirty) }
        set { flags.set(.isDirty, newValue) }
    }
    /// Counted in the server's `PendingConnections` (accepted, not upgraded, not claimed for eviction).
    var isPending: Bool {
        get { flags.contains(.isPending) }
        set { flags.set(.isPending, newValue) }
    }

    /// The connection's small yes/no states, one bit each.
    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let wantsWritable = Flags(rawValue: 1 << 0)
        static let isDirty = Flags(rawValue: 1 << 1)
        static let isPending = Flags(rawValue: 1 << 2)

        mutating func set(_ flag: Flags, _ on: Bool) {
            if on { insert(flag) } else { remove(flag) }
        }
    }

    /// Free for the application: per-connection state of the endpoint (a player session, say).
    public var context: AnyObject?
    /// What a client sent in its opening handshake, until the server's 101 arrives (one reference: accepted
    /// connections, by far the most, pay 8 bytes for it).
    var clientHandshake: ClientHandshake?
    /// permessage-deflate state, when it was negotiated (RFC 7692).
    // Unchecked: read for every message sent (whether to deflate it); part of `send`'s ~360 instructions of checks
    // per echoed message (see `flags`).
    @exclusivity(unchecked) var compression: ConnectionCompression?

    init(fd: Int32, generation: UInt32, loop: EventLoop, peer: SocketAddress, machine: ConnectionMachine) {
        self.fd = fd
        self.generation = generation
        self.loop = loop
        self.peer = peer
        self.machine = machine
    }

    /// A `Sendable` reference to this connection for use from other threads and actors.
    public var handle: ConnectionHandle {
        ConnectionHandle(loop: loop, fd: fd, generation: generation)
    }

    /// True for connections this process opened (the bots); they mask what they send.
    var isClient: Bool {
        machine.isClient
    }

    /// Whether messages can still be sent (the WebSocket is open and not closing).
    public var isOpen: Bool {
        machine.isOpen
    }

    /// Queues a text message; the bytes must be valid UTF-8.
    public func sendText(_ text: UnsafeRawBufferPointer) {
        send(.text, payload: text)
    }

    /// Queues a text message.
    public func sendText(_ text: String) {
        var text = text
        text.withUTF8 { send(.text, payload: UnsafeRawBufferPointer($0)) }
    }

    /// Queues a binary message.
    public func sendBinary(_ data: UnsafeRawBufferPointer) {
        send(.binary, payload: data)
    }

    /// Whether permessage-deflate was negotiated on this connection.
    public var isCompressed: Bool { compression != nil }

    /// Whether this connection can take a shared stream's compressed messages (`WebSocketCompression
    /// .sharedStreams` was negotiated, the peer keeps its window and agreed to the streams' window).
    public var takesSharedStreams: Bool {
        compression?.takesSharedStreams ?? false
    }

    /// Queues a message of a shared deflate stream: compressed when this connection is in step with the stream,
    /// plain otherwise (the rule is `DeflateStream`'s). Server connections only.
    public func send(_ frame: StreamFrame) {
        guard isOpen else { return }
        precondition(!isClient, "stream frames are server frames")
        loop.counters.messagesOut += 1
        if let compression, compression.canFollow(frame) {
            outbound.append(shared: ownCompression(compression).wireForm(of: frame))
        } else {
            outbound.append(shared: frame.plain)
        }
        loop.markDirty(self)
    }

    /// Queues an already encoded frame (from `FrameEncoder`) without copying it: the way to broadcast.
    /// Server connections only: a client must mask each frame with its own key.
    public func send(frame: [UInt8]) {
        guard isOpen else { return }
        precondition(!isClient, "client frames must be masked per frame; use sendText or sendBinary")
        loop.counters.messagesOut += 1
        outbound.append(shared: frame)
        loop.markDirty(self)
    }

    /// The inflater for this connection's compressed messages, if it negotiated compression.
    func inflater() -> (any MessageInflater)? {
        guard let compression else { return nil }
        return compression.inflatesWithOwnWindow ? ownCompression(compression).inflater(on: loop)
            : compression.inflater(on: loop)
    }

    /// The connection's own compression state: split off the loop's shared instance the first time the
    /// connection needs state (see `ConnectionCompression`).
    private func ownCompression(_ current: ConnectionCompression) -> ConnectionCompression {
        guard current.isShared else { return current }
        let own = current.unshared()
        compression = own
        return own
    }

    /// Starts the close handshake (RFC 6455 §7.1.2) with `code`; the endpoint's `didClose` follows.
    ///
    /// The close runs once the loop has finished with the current event (the message being delivered, say):
    /// like a close through `handle`, it is queued behind what the connection is doing, never run inside it.
    /// It takes effect at once all the same: no further message of the connection reaches the endpoint, and
    /// what the peer sends after our close frame is dropped unread while its close frame is awaited.
    public func close(code: CloseCode, reason: String = "") {
        machine.closeRequested()
        loop.submit(.close(fd: fd, generation: generation, code: code, reason: reason))
    }

    /// Fails the connection for what the peer did (RFC 6455 §7.1.7), such as a flood: our close frame with
    /// `code` goes out, nothing more the peer sent is parsed or inflated (its close frame is not awaited), and the
    /// TCP connection closes once the frame is written. The endpoint's `didClose` follows. Like `close`, it runs
    /// once the current event is handled and takes effect at once.
    public func fail(code: CloseCode, reason: String = "") {
        machine.closeRequested()
        loop.submit(.fail(fd: fd, generation: generation, code: code, reason: reason))
    }

    private func send(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) {
        guard isOpen else { return }
        // The loop outlives its connections, so it is borrowed without a retain: each use of an
        // `unowned(unsafe)` property, or a strong copy of it, costs a retain and a release, and this runs once
        // per echoed message.
        Unmanaged.passUnretained(loop)._withUnsafeGuaranteedRef { loop in
            // RFC 6455 §5.3: a client masks every frame with a fresh key; a server never masks.
            let key = isClient ? loop.maskingKeys.next() : nil
            loop.counters.messagesOut += 1
            if let compression, compression.compressesOwnMessages,
               let deflater = ownCompression(compression).ownDeflater() {
                // RFC 7692 §7.2.1: compressed with our context (kept or reset as agreed), RSV1 on its one frame.
                deflater.compress(payload).withUnsafeBytes {
                    queueFrame(opcode, payload: $0, compressed: true, maskingKey: key, pool: loop.pool)
                }
            } else {
                queueFrame(opcode, payload: payload, compressed: false, maskingKey: key, pool: loop.pool)
            }
            loop.markDirty(self)
        }
    }

    /// Writes one frame into the tail of the outbound queue, in an owned buffer's free space.
    private func queueFrame(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, compressed: Bool,
                            maskingKey: UInt32?, pool: BufferPool) {
        let length = FrameEncoder.frameLength(payloadLength: payload.count, masked: maskingKey != nil)
        outbound.appendOwned(pool: pool, upTo: length) {
            FrameEncoder.write(opcode, payload: payload, compressed: compressed, maskingKey: maskingKey, to: $0)
        }
    }
}

@available(*, unavailable)
extension Connection: Sendable {}

/// A client's opening handshake as sent: its `Sec-WebSocket-Key` and its permessage-deflate offer, to check the
/// server's 101 against (RFC 6455 §4.1, RFC 7692 §5.1), and the request's size, counted once the 101 came.
final class ClientHandshake {
    let key: String
    let compression: ClientCompression?
    var requestBytes = 0

    init(key: String, compression: ClientCompression?) {
        self.key = key
        self.compression = compression
    }
}

/// A thread-safe reference to a connection: sends and closes are handed to the owning event loop.
///
/// Safe to keep after the connection is gone: the loop drops messages for a closed connection (a generation
/// number tells a reused file descriptor from the original).
public struct ConnectionHandle: Sendable, Hashable {
    let loop: EventLoop
    let fd: Int32
    let generation: UInt32

    public static func == (lhs: ConnectionHandle, rhs: ConnectionHandle) -> Bool {
        lhs.loop === rhs.loop && lhs.fd == rhs.fd && lhs.generation == rhs.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(loop))
        hasher.combine(fd)
        hasher.combine(generation)
    }

    /// Unique in this process for as long as generations do not wrap (2³² connections per loop).
    public var id: UInt64 {
        UInt64(loop.index) << 56 | UInt64(generation) << 24 | UInt64(UInt32(bitPattern: fd) & 0xFF_FFFF)
    }

    /// Runs `body` on the connection's event loop with the connection, or with nil when it has closed
    /// (or started closing) in the meantime.
    public func execute(_ body: @escaping @Sendable (Connection?) -> Void) {
        let (fd, generation) = (fd, generation)
        loop.execute { loop in
            body(loop.openConnection(fd, generation))
        }
    }

    /// Queues an encoded frame to this connection.
    public func send(frame: [UInt8]) {
        loop.submit(.send(fd: fd, generation: generation, frame: frame))
    }

    /// Queues a message of a shared deflate stream (see `Connection.send(_: StreamFrame)`).
    public func send(_ frame: StreamFrame) {
        loop.submit(.sendStream(fd: fd, generation: generation, frame: frame))
    }

    /// Closes the connection with `code`.
    public func close(code: CloseCode, reason: String = "") {
        loop.submit(.close(fd: fd, generation: generation, code: code, reason: reason))
    }

    /// Queues one encoded frame to many connections: one hand-off per event loop, the bytes shared by all.
    public static func broadcast(frame: [UInt8], to handles: some Sequence<ConnectionHandle>) {
        var byLoop: [ObjectIdentifier: (EventLoop, [(Int32, UInt32)])] = [:]
        for handle in handles {
            byLoop[ObjectIdentifier(handle.loop), default: (handle.loop, [])].1.append((handle.fd, handle.generation))
        }
        for (loop, targets) in byLoop.values {
            loop.submit(.broadcast(frame: frame, targets: targets))
        }
    }
}
