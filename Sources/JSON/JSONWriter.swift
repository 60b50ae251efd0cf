/// Serializes `JSONValue` to compact UTF-8 JSON text (RFC 8259).
///
/// Output is deterministic: object members in their stored order, no whitespace, a fixed escaping. The writer
/// appends to a caller's buffer so a WebSocket frame header can be reserved in front of the payload and a
/// broadcast encoded exactly once.
///
/// Values built by code are trusted: nesting is handled by recursion, so the depth is the caller's to bound
/// (values from `JSONParser` are bounded by its depth limit).
public struct JSONWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// Appends the JSON text of `value` to `buffer`.
    ///
    /// - Parameters:
    ///   - value: The value to serialize.
    ///   - buffer: Bytes to append to; existing content (such as reserved header space) is kept.
    public func write(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null:
            Self.append(literal: "null", to: &buffer)
        case .bool(let flag):
            Self.append(literal: flag ? "true" : "false", to: &buffer)
        case .integer(let integer):
            Self.write(integer, into: &buffer)
        case .number(let double):
            Self.write(double, into: &buffer)
        case .string(let string):
            Self.write(string, into: &buffer)
        case .array(let elements):
            buffer.append(ASCII.openBracket)
            var first = true
            for element in elements {
                if !first { buffer.append(ASCII.comma) }
                first = false
                write(element, into: &buffer)
            }
            buffer.append(ASCII.closeBracket)
        case .object(let object):
            buffer.append(ASCII.openBrace)
            var first = true
            for (key, member) in object {
                if !first { buffer.append(ASCII.comma) }
                first = false
                Self.write(key, into: &buffer)
                buffer.append(ASCII.colon)
                write(member, into: &buffer)
            }
            buffer.append(ASCII.closeBrace)
        }
    }

    /// Serializes `value` into a new array.
    ///
    /// - Parameter value: The value to serialize.
    /// - Returns: The UTF-8 JSON text.
    public func serialize(_ value: JSONValue) -> [UInt8] {
        var buffer: [UInt8] = []
        write(value, into: &buffer)
        return buffer
    }

    // MARK: - Scalars

    private static func append(literal: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Decimal digits, written back to front into space appended in one step.
    static func write(_ integer: Int64, into buffer: inout [UInt8]) {
        if integer < 0 { buffer.append(ASCII.minus) }
        var magnitude = integer.magnitude
        var digitCount = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digitCount += 1
        }
        buffer.append(contentsOf: repeatElement(ASCII.zero, count: digitCount))
        var position = buffer.count - 1
        repeat {
            buffer[position] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            position -= 1
        } while magnitude > 0
    }

    /// RFC 8259 §6: Infinity and NaN are not permitted, so they become `null`. Swift's `description` gives the
    /// shortest text that round-trips (`0.1`, `1e-07`, `1.0`), and every such form matches the JSON number
    /// grammar.
    static func write(_ double: Double, into buffer: inout [UInt8]) {
        guard double.isFinite else {
            append(literal: "null", to: &buffer)
            return
        }
        buffer.append(contentsOf: double.description.utf8)
    }

    /// RFC 8259 §7: quotation mark, reverse solidus and control characters (U+0000 to U+001F) must be escaped;
    /// everything else, including non-ASCII, is copied as UTF-8. Runs of plain bytes are copied in one step.
    static func write(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(ASCII.quote)
        let copied: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            var runStart = 0
            for position in 0..<bytes.count where needsEscape(bytes[position]) {
                if runStart < position {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                }
                appendEscape(for: bytes[position], to: &buffer)
                runStart = position + 1
            }
            if runStart < bytes.count {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            }
        }
        if copied == nil {
            for byte in string.utf8 {
                if needsEscape(byte) {
                    appendEscape(for: byte, to: &buffer)
                } else {
                    buffer.append(byte)
                }
            }
        }
        buffer.append(ASCII.quote)
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < ASCII.firstNonControl || byte == ASCII.quote || byte == ASCII.backslash
    }

    private static func appendEscape(for byte: UInt8, to buffer: inout [UInt8]) {
        let short: UInt8
        switch byte {
        case ASCII.quote: short = ASCII.quote
        case ASCII.backslash: short = ASCII.backslash
        case ASCII.backspace: short = UInt8(ascii: "b")
        case ASCII.formFeed: short = UInt8(ascii: "f")
        case ASCII.lineFeed: short = UInt8(ascii: "n")
        case ASCII.carriageReturn: short = UInt8(ascii: "r")
        case ASCII.tab: short = UInt8(ascii: "t")
        default:
            // Other control characters: \u00XX with lowercase hex digits.
            buffer.append(contentsOf: [ASCII.backslash, UInt8(ascii: "u"), ASCII.zero, ASCII.zero,
                                       hexDigit(byte >> 4), hexDigit(byte & 0x0F)])
            return
        }
        buffer.append(ASCII.backslash)
        buffer.append(short)
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? ASCII.zero &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }
}
