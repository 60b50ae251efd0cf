import Deflate
import Synchronization
import WebSocket

/// One deflate context shared by every receiver of a sequence of broadcasts (a room's patches): each message is
/// compressed once, with context takeover, and the same bytes are queued to every receiver (RFC 7692 §7.2.1).
///
/// **The invariant that keeps receivers in step.** With context takeover a receiver's inflater window is the
/// history of every compressed message it got, and a compressed message may refer back into that window. So a
/// connection may be sent a stream's compressed message only if it already got, compressed and in order, every
/// compressed message of that stream since a point where the stream started fresh (its window was emptied,
/// `restart`, so nothing after refers to anything before). `Connection.send(_: StreamFrame)` keeps that rule
/// with two numbers per connection, the stream it follows and the index it expects next; anything else (a
/// welcome, a snapshot, an error, resume replays, a message of another room) is sent uncompressed and never
/// enters the receiver's window. A connection that joins, resumes, or falls out of step (it missed a message)
/// gets the stream's messages plain until the next fresh start; taking one plain raises a flag that makes the
/// next message a fresh start, and the stream's owner restarts it on purpose when someone joins.
///
/// Used by one thread at a time (the room's executor, which serializes its broadcasts), hence `@unchecked`.
public final class DeflateStream: @unchecked Sendable {
    /// The window the stream compresses with (`2^windowBits` bytes of history).
    public let windowBits: Int
    private let memoryLevel: Int32
    private let id: UInt64
    private var deflater: Deflater?
    private var nextIndex: UInt64 = 0
    private var restartPending = true
    private let restartRequest = StreamRestartRequest()

    private static let ids = Atomic<UInt64>(0)

    /// - Parameters:
    ///   - windowBits: 9 to 15; the endpoint states it in its handshake response (`server_max_window_bits`).
    ///   - memoryLevel: zlib's memLevel, 1 to 9 (memory for the match finder).
    public init(windowBits: Int, memoryLevel: Int32) {
        precondition(PerMessageDeflate.usableWindowBits.contains(windowBits), "a window of 9 to 15 bits")
        self.windowBits = windowBits
        self.memoryLevel = memoryLevel
        id = Self.ids.add(1, ordering: .relaxed).newValue
    }

    /// Makes the next message a fresh start (someone new will read the stream from there).
    public func restart() {
        restartPending = true
    }

    /// The next message of the stream, as a text frame both ways; compressed now, in stream order.
    ///
    /// - Parameter json: the message, UTF-8 text.
    public func frame(text json: [UInt8]) -> StreamFrame {
        let plain = FrameEncoder.encode(.text, payload: json)
        if deflater == nil {
            // zlib allocates its tables here: only streams somebody compressed for pay for them.
            deflater = try? Deflater(windowBits: windowBits, memoryLevel: memoryLevel)
            restartPending = true
        }
        guard let deflater else {
            return StreamFrame(plain: plain, compressed: [], streamID: id, index: 0, startsFresh: false,
                               windowBits: windowBits, restartRequest: restartRequest)
        }
        let startsFresh = restartRequest.take() || restartPending
        if startsFresh && nextIndex > 0 { deflater.restart() }
        restartPending = false
        let payload = deflater.compress(json)
        let compressed = FrameEncoder.encode(.text, payload: payload, compressed: true)
        let frame = StreamFrame(plain: plain, compressed: compressed, streamID: id, index: nextIndex,
                                startsFresh: startsFresh || nextIndex == 0, windowBits: windowBits,
                                restartRequest: restartRequest)
        nextIndex += 1
        return frame
    }
}
