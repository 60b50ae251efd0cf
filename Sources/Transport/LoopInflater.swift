import Deflate
import WebSocket

/// The zlib inflater a session uses for compressed messages (RFC 7692 §7.2.2): one per connection when the
/// peer keeps its context, or one per event loop shared by every connection whose peer resets its context after
/// each message (`*_no_context_takeover`), since such messages need no window from earlier ones.
///
/// Besides the message-size cap it bounds the inflate ratio: a message may inflate to at most `maxRatio` times
/// its compressed size (with a floor allowed whatever the ratio, `ratioFloor(maxBytes:)`), so a few kilobytes on
/// the wire cannot make the loop spend its time producing megabytes.
final class LoopInflater: MessageInflater {
    private let inflater: Inflater
    private let resetsContext: Bool
    private let maxRatio: Int
    /// Inflated sizes up to this pass whatever the ratio: small JSON compresses well with context takeover.
    static let ratioFloor = 64 * 1024

    /// The inflated size that passes whatever the ratio, for a message cap of `maxBytes`: a quarter of the cap, at
    /// most `ratioFloor`. A floor as large as the cap would leave the cap as the only bound: the game sockets'
    /// 16 KiB cap passed every message whatever its ratio (4 KiB passes now).
    static func ratioFloor(maxBytes: Int) -> Int {
        min(ratioFloor, maxBytes / 4)
    }

    init(windowBits: Int, resetsContext: Bool, maxRatio: Int) throws(CompressionError) {
        inflater = try Inflater(windowBits: windowBits)
        self.resetsContext = resetsContext
        self.maxRatio = maxRatio
    }

    func inflate(_ payload: UnsafeRawBufferPointer, maxBytes: Int,
                 _ deliver: (UnsafeRawBufferPointer) -> Void) throws(InflateFailure) {
        let (product, overflow) = payload.count.multipliedReportingOverflow(by: maxRatio)
        let ratioBound = overflow ? Int.max : max(product, Self.ratioFloor(maxBytes: maxBytes))
        do {
            try inflater.decompress(payload, maxBytes: min(maxBytes, ratioBound), resetContext: resetsContext,
                                    deliver)
        } catch {
            switch error {
            case .corrupt: throw .corrupt
            case .tooLarge: throw ratioBound < maxBytes ? .ratioExceeded(maxRatio: maxRatio) : .tooLarge
            }
        }
    }
}
