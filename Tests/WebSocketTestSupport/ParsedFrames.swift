import WebSocket

/// Everything a fresh `FrameParser` yields for some bytes, with the payload chunks of each frame joined, so that
/// different splits of the same bytes compare equal.
public struct ParsedFrames: Equatable, Sendable {
    /// A frame's header and its whole (unmasked) payload.
    public struct Frame: Equatable, Sendable {
        public var header: FrameParser.Header
        public var payload: [UInt8]
    }

    public var frames: [Frame] = []
    /// How many frames ended (`.end` events).
    public var ended = 0
    /// The error that stopped the parser, if any.
    public var error: WebSocketError?
    /// How many times the parser returned "need more" with bytes of its chunk left unread: a parser must read all it
    /// is given (it keeps a partial header itself), so this is 0 unless the parser is broken.
    public var chunksLeftUnread = 0

    /// Feeds `bytes` to a fresh parser in chunks ending at `cuts` and joins what it yields.
    ///
    /// - Parameters:
    ///   - role: the parser's side of the connection (a server reads masked frames).
    ///   - bytes: what the peer sends.
    ///   - cuts: the offsets at which reads end, in order.
    ///   - allowsCompression: permessage-deflate was negotiated (RSV1 may start a data message).
    ///   - observe: sees every event before it is joined in, with what was joined so far, for invariants a caller
    ///     checks as the parser goes.
    public init(_ role: WebSocketRole, _ bytes: [UInt8], cuts: [Int] = [], allowsCompression: Bool = false,
                observe: (FrameParser.Event, ParsedFrames) -> Void = { _, _ in }) {
        var parser = FrameParser(role: role, allowsCompression: allowsCompression)
        do throws(WebSocketError) {
            try forEachChunk(of: bytes, endingAt: cuts) { (chunk) throws(WebSocketError) in
                var offset = 0
                while let event = try parser.next(in: chunk, at: &offset) {
                    observe(event, self)
                    switch event {
                    case .header(let header): frames.append(Frame(header: header, payload: []))
                    case .payload(let bytes): frames[frames.count - 1].payload += bytes
                    case .end: ended += 1
                    }
                }
                if offset != chunk.count { chunksLeftUnread += 1 }
            }
        } catch {
            self.error = error
        }
    }
}
