import Deflate
import WebSocket

/// What permessage-deflate (RFC 7692) needs per connection once it was negotiated; connections without it hold
/// nothing (one nil reference), and idle ones with it hold no zlib memory until they send or receive.
///
/// Idle server connections hold not even this object of their own: they point to their loop's shared instance
/// for the terms they agreed (`isShared`, see `EventLoop.sharedCompression`), which is never changed, and a
/// connection takes a copy of its own (`unshared()`) only when it first needs state: a compressor, an inflater
/// with a window kept, or a place in a stream. 19,500 idle game sockets would otherwise pay 128 bytes each
/// (this object and malloc's rounding), a third more than such a connection costs in all.
final class ConnectionCompression {
    /// The endpoint's choice: our own context for what we send, or only shared streams.
    let mode: WebSocketCompression
    /// The window we compress with, and whether we reset it after each message (`*_no_context_takeover` for
    /// our side).
    let ownWindowBits: Int
    let ownResets: Bool
    /// zlib's memLevel and level for our compressor.
    let ownMemoryLevel: Int32
    let ownLevel: Int32
    /// The window the peer compresses with (we inflate with at least that) and whether it resets after each
    /// message, in which case one inflater per loop serves the connection.
    let peerWindowBits: Int
    let peerResets: Bool
    private var deflater: Deflater?
    private var inflater: LoopInflater?

    /// The stream this connection follows, and the index of the message it expects next (see `DeflateStream`).
    private var streamID: UInt64 = 0
    private var nextIndex: UInt64 = 0
    private var inStep = false
    /// A loop's instance for every connection that agreed these terms and needs no state of its own yet: it is
    /// only read (its methods that make state trap), and a connection replaces it with `unshared()` first.
    let isShared: Bool

    init(mode: WebSocketCompression, ownWindowBits: Int, ownResets: Bool, ownMemoryLevel: Int32 = 8,
         ownLevel: Int32 = ConnectionCompression.echoLevel, peerWindowBits: Int, peerResets: Bool,
         isShared: Bool = false) {
        self.mode = mode
        self.ownWindowBits = ownWindowBits
        self.ownResets = ownResets
        self.ownMemoryLevel = ownMemoryLevel
        self.ownLevel = ownLevel
        self.peerWindowBits = peerWindowBits
        self.peerResets = peerResets
        self.isShared = isShared
    }

    /// A connection's own state with these terms, fresh: this instance when it is not a shared one.
    func unshared() -> ConnectionCompression {
        guard isShared else { return self }
        return ConnectionCompression(mode: mode, ownWindowBits: ownWindowBits, ownResets: ownResets,
                                     ownMemoryLevel: ownMemoryLevel, ownLevel: ownLevel,
                                     peerWindowBits: peerWindowBits, peerResets: peerResets)
    }

    /// Whether the connection compresses what it sends itself (and so needs a compressor of its own).
    var compressesOwnMessages: Bool { mode == .perConnection }

    /// Whether the connection inflates with an inflater of its own, which keeps the peer's window.
    var inflatesWithOwnWindow: Bool { !peerResets }

    /// Whether this connection can take `frame`'s stream compressed at all, in step or not: a game socket whose
    /// peer keeps its window, agreed to at least the stream's window (a client that offered a smaller
    /// `server_max_window_bits` cannot inflate it).
    func canFollow(_ frame: StreamFrame) -> Bool {
        guard case .sharedStreams = mode else { return false }
        return frame.isCompressed && !peerResetsOurs && Int(frame.windowBits) <= ownWindowBits
    }

    /// Whether this connection can take the compressed messages of streams that use the endpoint's window
    /// (`WebSocketCompression.sharedStreams(windowBits:)`): it follows rooms' streams.
    var takesSharedStreams: Bool {
        guard case .sharedStreams(let windowBits) = mode else { return false }
        return !peerResetsOurs && windowBits <= ownWindowBits
    }

    /// The level of a server connection's own compressor (`/echo`, the general case): zlib's fastest. What an
    /// echo sends is what it got, so a smaller output is worth less than the CPU; rooms compress their patches
    /// at zlib's default level in their `DeflateStream`, once for all members.
    static let echoLevel: Int32 = 1

    /// A server connection's state from what was agreed.
    convenience init(server agreement: PerMessageDeflate.Agreement, mode: WebSocketCompression,
                     isShared: Bool = false) {
        self.init(mode: mode, ownWindowBits: agreement.serverWindowBits,
                  ownResets: agreement.response.serverNoContextTakeover,
                  peerWindowBits: agreement.clientWindowBits,
                  peerResets: agreement.response.clientNoContextTakeover, isShared: isShared)
    }

    /// A client connection's state from the server's response (RFC 7692 §7.1): the client may always
    /// compress with a smaller window than the one allowed (§7.1.2.2), which keeps its memory small.
    convenience init(client agreed: PerMessageDeflate.Parameters, options: ClientCompression) {
        var ownBits = options.windowBits
        if case .bits(let limit) = agreed.clientMaxWindowBits {
            // zlib cannot compress raw deflate with an 8-bit window: a limit of 8 leaves our messages
            // uncompressed, which RFC 7692 always allows (RSV1 clear), rather than break the server's limit.
            ownBits = min(ownBits, limit)
        }
        var peerBits = 15
        if case .bits(let limit) = agreed.serverMaxWindowBits {
            peerBits = max(limit, PerMessageDeflate.usableWindowBits.lowerBound)
        }
        self.init(mode: .perConnection, ownWindowBits: ownBits, ownResets: agreed.clientNoContextTakeover,
                  ownMemoryLevel: options.memoryLevel, ownLevel: options.level, peerWindowBits: peerBits,
                  peerResets: agreed.serverNoContextTakeover)
    }

    /// Our compressor for what this connection sends itself; nil on game sockets, where only shared streams
    /// are compressed (a message compressed in a context of its own would enter the receiver's window and put
    /// it out of step with the stream).
    func ownDeflater() -> Deflater? {
        guard compressesOwnMessages, PerMessageDeflate.usableWindowBits.contains(ownWindowBits) else { return nil }
        precondition(!isShared, "a connection's compressor lives in its own state")
        if deflater == nil {
            deflater = try? Deflater(windowBits: ownWindowBits, memoryLevel: ownMemoryLevel, level: ownLevel,
                                     resetsContext: ownResets)
        }
        return deflater
    }

    /// The inflater for this connection's compressed messages: the loop's shared one when the peer resets its
    /// context after each message, else the connection's own (made on first use).
    func inflater(on loop: EventLoop) -> (any MessageInflater)? {
        if peerResets { return loop.sharedInflater }
        precondition(!isShared, "a connection's inflater lives in its own state")
        if inflater == nil {
            inflater = try? LoopInflater(windowBits: peerWindowBits, resetsContext: false,
                                         maxRatio: loop.configuration.maxInflateRatio)
        }
        return inflater
    }

    /// The form of `frame` this connection gets: compressed when it is in step with the stream
    /// (`takesCompressed`), else plain. A connection that could follow the stream but is out of step raises the
    /// stream's restart request, so that the next message is a fresh start it can take; one that never can (see
    /// `canFollow`) does not, or it would make every message of the stream a fresh start for nothing.
    func wireForm(of frame: StreamFrame) -> [UInt8] {
        if takesCompressed(frame) { return frame.compressed }
        if canFollow(frame) { frame.restartRequest.raise() }
        return frame.plain
    }

    /// Whether `frame` goes to this connection compressed: the rule of `DeflateStream`. Updates the position.
    func takesCompressed(_ frame: StreamFrame) -> Bool {
        guard canFollow(frame) else { return false }
        precondition(!isShared, "a connection's place in a stream lives in its own state")
        if frame.startsFresh || (inStep && frame.streamID == streamID && frame.index == nextIndex) {
            streamID = frame.streamID
            nextIndex = frame.index &+ 1
            inStep = true
            return true
        }
        inStep = false
        return false
    }

    /// The peer's inflater forgets its window after every message (`server_no_context_takeover` as the server):
    /// a stream's messages, which refer to earlier ones, cannot go to it compressed.
    private var peerResetsOurs: Bool { ownResets }
}

/// What a loop's shared `ConnectionCompression` instances are told apart by.
struct SharedCompressionTerms: Hashable {
    let agreement: PerMessageDeflate.Agreement
    let mode: WebSocketCompression
}

/// A client's permessage-deflate offer and its own compressor's size (our bots: thousands of connections).
public struct ClientCompression: Sendable, Hashable {
    /// The window the client compresses with, 9 to 15 (at most what the server allows).
    public var windowBits: Int
    /// zlib's memLevel for the client's compressor, 1 to 9.
    public var memoryLevel: Int32
    /// zlib's compression level, 1 (fastest) to 9.
    public var level: Int32

    public init(windowBits: Int = 15, memoryLevel: Int32 = 8, level: Int32 = 6) {
        precondition(PerMessageDeflate.usableWindowBits.contains(windowBits), "a window of 9 to 15 bits")
        precondition((1...9).contains(memoryLevel), "memLevel is 1 to 9")
        precondition((1...9).contains(level), "zlib levels are 1 to 9")
        self.windowBits = windowBits
        self.memoryLevel = memoryLevel
        self.level = level
    }

    /// The offer: `permessage-deflate; client_max_window_bits`, as browsers send it (the server may then limit
    /// the client's window, RFC 7692 §7.1.2.2).
    var offer: PerMessageDeflate.Parameters {
        var parameters = PerMessageDeflate.Parameters()
        parameters.clientMaxWindowBits = .supported
        return parameters
    }
}
