/// What a `fanout` message says, for its sender to time it when it comes back and for room-mates to check that it
/// came from their room: the sender, its sequence number and the monotonic time it was sent.
///
/// ASCII, fixed width, so that any relay (WordRooms, Node `ws`, gorilla) passes it unchanged and it is read
/// without searching: `f`, the sender (8 digits), a space, the sequence number (10 digits), a space, the send
/// time in nanoseconds (20 digits), a space, then `x` up to the run's `--size`.
///
///     f00000017 0000000003 00000012345678901234 xxxxxxxx...
struct FanoutPayload: Equatable {
    var sender: Int
    var sequence: Int
    /// Monotonic nanoseconds (`MonotonicClock`): every bot of a run shares the process's clock.
    var sentAt: UInt64

    static let senderDigits = 8
    static let sequenceDigits = 10
    static let timeDigits = 20
    /// The bytes before the padding: the smallest `--size` a fanout message can have.
    static let headerBytes = 1 + senderDigits + 1 + sequenceDigits + 1 + timeDigits + 1
    /// The most senders the field holds (`--connections` stays below).
    static let maxSender = 99_999_999

    private static let marker = UInt8(ascii: "f")
    private static let space = UInt8(ascii: " ")
    private static let padding = UInt8(ascii: "x")
    private static let zero = UInt8(ascii: "0")

    /// A message of `size` bytes (at least `headerBytes`) to stamp with `write(into:)`: all padding.
    static func template(size: Int) -> [UInt8] {
        precondition(size >= headerBytes, "a fanout message needs at least \(headerBytes) bytes")
        return [UInt8](repeating: padding, count: size)
    }

    /// Writes the header into the start of `bytes` (a `template`), leaving the padding.
    func write(into bytes: inout [UInt8]) {
        precondition(bytes.count >= Self.headerBytes, "a fanout message needs at least \(Self.headerBytes) bytes")
        bytes.withUnsafeMutableBufferPointer { out in
            var at = 0
            func field(_ value: UInt64, digits: Int) {
                var rest = value
                for index in stride(from: at + digits - 1, through: at, by: -1) {
                    out[index] = Self.zero &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                at += digits
                out[at] = Self.space
                at += 1
            }
            out[0] = Self.marker
            at = 1
            field(UInt64(sender), digits: Self.senderDigits)
            field(UInt64(sequence), digits: Self.sequenceDigits)
            field(sentAt, digits: Self.timeDigits)
        }
    }

    /// Reads a message's header; nil when it is not one (too short, a wrong marker, separator or digit, or
    /// padding that is not `x`: a cut or changed message).
    init?(parsing text: UnsafeRawBufferPointer) {
        guard text.count >= Self.headerBytes, text[0] == Self.marker,
              text.count == Self.headerBytes || text[text.count - 1] == Self.padding else { return nil }
        var at = 1
        func field(digits: Int) -> UInt64? {
            var value: UInt64 = 0
            for index in at..<at + digits {
                let digit = text[index] &- Self.zero
                guard digit < 10 else { return nil }
                value = value &* 10 &+ UInt64(digit)
            }
            at += digits
            guard text[at] == Self.space else { return nil }
            at += 1
            return value
        }
        guard let sender = field(digits: Self.senderDigits), let sequence = field(digits: Self.sequenceDigits),
              let sentAt = field(digits: Self.timeDigits) else { return nil }
        self.sender = Int(sender)
        self.sequence = Int(sequence)
        self.sentAt = sentAt
    }

    init(sender: Int, sequence: Int, sentAt: UInt64) {
        self.sender = sender
        self.sequence = sequence
        self.sentAt = sentAt
    }
}
