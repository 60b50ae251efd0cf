import Synchronization

/// One message of a `DeflateStream`, framed two ways: plain, and compressed in the stream's shared context.
///
/// Queued to a connection with `ConnectionHandle.send(_:)`, it goes out compressed only to a connection that is
/// in step with the stream (see `DeflateStream` for the rule) and plain to every other, so the same two arrays
/// serve every recipient.
public final class StreamFrame: Sendable {
    /// The message as an uncompressed text frame (RSV1 clear: it never enters a receiver's window).
    public let plain: [UInt8]
    /// The message compressed in the stream, as a text frame with RSV1 set; empty when it was not compressed.
    let compressed: [UInt8]
    /// Which stream, and where in it: compressed messages are numbered 0, 1, 2... without gaps.
    let streamID: UInt64
    let index: UInt64
    /// The compressor's window was empty before this message: a receiver may start reading the stream here.
    let startsFresh: Bool
    /// The window the stream compresses with; a receiver that agreed to a smaller one cannot take it.
    let windowBits: UInt8
    /// Raised by a connection that had to take this message plain: the stream then starts afresh soon.
    let restartRequest: StreamRestartRequest

    init(plain: [UInt8], compressed: [UInt8], streamID: UInt64, index: UInt64, startsFresh: Bool, windowBits: Int,
         restartRequest: StreamRestartRequest) {
        self.plain = plain
        self.compressed = compressed
        self.streamID = streamID
        self.index = index
        self.startsFresh = startsFresh
        self.windowBits = UInt8(windowBits)
        self.restartRequest = restartRequest
    }

    /// Whether the message was compressed at all (a stream whose compressor could not be made sends plain).
    public var isCompressed: Bool { !compressed.isEmpty }
}

/// A flag an event loop raises and the stream's owner lowers: a connection wants the stream to start afresh.
final class StreamRestartRequest: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() {
        raised.store(true, ordering: .relaxed)
    }

    /// Whether it was raised since the last call.
    func take() -> Bool {
        raised.load(ordering: .relaxed) && raised.exchange(false, ordering: .relaxed)
    }
}
