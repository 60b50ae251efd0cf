/// Inflates compressed messages for a `WebSocketSession` (RFC 7692 §7.2.2).
///
/// Framing stays free of any compression library: the session finds compressed messages (RSV1) and hands each
/// one, whole, to an inflater the I/O layer supplies (over zlib, say). The inflater adds the removed tail
/// `00 00 ff ff` itself and keeps or resets its window as the extension's parameters say.
public protocol MessageInflater: AnyObject {
    /// Inflates one message: the payloads of its frames, joined, as received.
    ///
    /// - Parameters:
    ///   - payload: the compressed message, without the tail.
    ///   - maxBytes: the largest inflated message accepted; inflating stops as soon as it would be passed.
    ///   - deliver: called once with the inflated message; the bytes are valid only during the call.
    /// - Throws: `InflateFailure`; the inflater is then ready for the next connection's messages (its window, if
    ///   it keeps one, is lost: the connection fails anyway).
    func inflate(_ payload: UnsafeRawBufferPointer, maxBytes: Int,
                 _ deliver: (UnsafeRawBufferPointer) -> Void) throws(InflateFailure)
}

/// Why a compressed message was refused.
public enum InflateFailure: Error, Sendable, Hashable {
    /// Not a deflate stream, or one that ended badly (close 1007).
    case corrupt
    /// Inflated, it would pass the message-size cap (close 1009).
    case tooLarge
    /// Inflated, it would pass `maxRatio` times its compressed size: a deflate bomb, refused before the
    /// size cap (close 1009).
    case ratioExceeded(maxRatio: Int)
}
