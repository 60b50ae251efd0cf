/// Serializes `JSONValue` to compact UTF-8 JSON text (RFC 8259).
///
/// Output is deterministic: object members in their stored order, no whitespace, a fixed escaping. The writer
/// appends to a caller's buffer so a WebSocket frame header can be reserved in front of the payload and a
/// broadcast encoded exactly once. Bytes are produced through a raw pointer into one scratch allocation and
/// appended to the caller's buffer with a single copy; no `String` is built except for doubles.
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
        var output = Output(capacity: Self.initialCapacity)
        Self.write(value, to: &output)
        output.withBytes { buffer.append(contentsOf: $0) }
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

    /// Appends the patch document (RFC 6902 §3) of `patch` to `buffer`: the same text as writing `patch.json`,
    /// each operation as `{"op", "from"?, "path", "value"?}`, without building that JSON value first (a
    /// broadcast patch is written once per change, and the intermediate objects cost more than the writing).
    ///
    /// - Parameters:
    ///   - patch: The operations to write.
    ///   - buffer: Bytes to append to.
    public func write(_ patch: JSONPatch, into buffer: inout [UInt8]) {
        var output = Output(capacity: Self.initialCapacity)
        output.append(ASCII.openBracket)
        for (index, operation) in patch.operations.enumerated() {
            if index > 0 { output.append(ASCII.comma) }
            output.append(literal: "{\"op\":")
            Self.write(operation.name, to: &output)
            switch operation {
            case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
                output.append(literal: ",\"path\":")
                Self.write(path, to: &output)
                output.append(literal: ",\"value\":")
                Self.write(value, to: &output)
            case .remove(let path):
                output.append(literal: ",\"path\":")
                Self.write(path, to: &output)
            case .move(let from, let path), .copy(let from, let path):
                output.append(literal: ",\"from\":")
                Self.write(from, to: &output)
                output.append(literal: ",\"path\":")
                Self.write(path, to: &output)
            }
            output.append(ASCII.closeBrace)
        }
        output.append(ASCII.closeBracket)
        output.withBytes { buffer.append(contentsOf: $0) }
    }

    /// Enough for a typical patch message without growing; a full room state grows a few times.
    static let initialCapacity = 1024

    private static func write(_ value: JSONValue, to output: inout Output) {
        switch value {
        case .null:
            output.append(literal: "null")
        case .bool(let flag):
            output.append(literal: flag ? "true" : "false")
        case .integer(let integer):
            write(integer, to: &output)
        case .number(let double):
            write(double, to: &output)
        case .string(let string):
            write(string, to: &output)
        case .array(let elements):
            output.append(ASCII.openBracket)
            var first = true
            for element in elements {
                if !first { output.append(ASCII.comma) }
                first = false
                write(element, to: &output)
            }
            output.append(ASCII.closeBracket)
        case .object(let object):
            output.append(ASCII.openBrace)
            var first = true
            for (key, member) in object {
                if !first { output.append(ASCII.comma) }
                first = false
                write(key, to: &output)
                output.append(ASCII.colon)
                write(member, to: &output)
            }
            output.append(ASCII.closeBrace)
        }
    }

    // MARK: - Scalars

    /// Decimal digits, written back to front into a small stack buffer.
    private static func write(_ integer: Int64, to output: inout Output) {
        let maxLength = 20  // "-9223372036854775808"
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxLength) { digits in
            var magnitude = integer.magnitude
            var position = maxLength
            repeat {
                position -= 1
                digits[position] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if integer < 0 {
                position -= 1
                digits[position] = ASCII.minus
            }
            output.append(UnsafeBufferPointer(rebasing: digits[position..<maxLength]))
        }
    }

    /// RFC 8259 §6: Infinity and NaN are not permitted, so they become `null`. Swift's `description` gives the
    /// shortest text that round-trips (`0.1`, `1e-07`, `1.0`), and every such form matches the JSON number
    /// grammar.
    private static func write(_ double: Double, to output: inout Output) {
        guard double.isFinite else {
            output.append(literal: "null")
            return
        }
        var text = double.description
        text.withUTF8 { output.append($0) }
    }

    /// RFC 8259 §7: quotation mark, reverse solidus and control characters (U+0000 to U+001F) must be escaped;
    /// everything else, including non-ASCII, is copied as UTF-8. Runs of plain bytes are copied in one step.
    private static func write(_ string: String, to output: inout Output) {
        output.append(ASCII.quote)
        let utf8 = string.utf8
        let copied: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            var runStart = 0
            for position in 0..<bytes.count where needsEscape(bytes[position]) {
                output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                appendEscape(for: bytes[position], to: &output)
                runStart = position + 1
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        if copied == nil {
            for byte in utf8 {
                if needsEscape(byte) {
                    appendEscape(for: byte, to: &output)
                } else {
                    output.append(byte)
                }
            }
        }
        output.append(ASCII.quote)
    }

    /// A JSON Pointer as a JSON string: its RFC 6901 §3 form (`~` as `~0`, `/` as `~1`), escaped for JSON.
    private static func write(_ pointer: JSONPointer, to output: inout Output) {
        output.append(ASCII.quote)
        for token in pointer.tokens {
            output.append(ASCII.slash)
            for byte in token.utf8 {
                switch byte {
                case JSONPointer.tilde:
                    output.append(JSONPointer.tilde)
                    output.append(ASCII.zero)
                case ASCII.slash:
                    output.append(JSONPointer.tilde)
                    output.append(UInt8(ascii: "1"))
                default:
                    if needsEscape(byte) {
                        appendEscape(for: byte, to: &output)
                    } else {
                        output.append(byte)
                    }
                }
            }
        }
        output.append(ASCII.quote)
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < ASCII.firstNonControl || byte == ASCII.quote || byte == ASCII.backslash
    }

    private static func appendEscape(for byte: UInt8, to output: inout Output) {
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
            output.append(literal: "\\u00")
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
            return
        }
        output.append(ASCII.backslash)
        output.append(short)
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? ASCII.zero &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }
}

/// Output bytes written through a raw pointer, so each byte costs a store rather than an `Array.append` with its
/// uniqueness and capacity checks. Grows by doubling; the caller copies the result out once.
private struct Output: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if capacity - count < bytes.count { grow(toAtLeast: count + bytes.count) }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
