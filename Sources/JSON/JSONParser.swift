/// A strict RFC 8259 parser with limits for hostile input.
///
/// Accepts exactly the JSON grammar: no comments, no trailing commas, no leading zeros, no byte order mark,
/// only the escapes of RFC 8259 §7 with `\uXXXX` surrogate pairs combined and lone surrogates rejected, and
/// only well-formed UTF-8 inside strings (RFC 8259 §8.1). Duplicate member names, which RFC 8259 §4 leaves to
/// the implementation, are rejected so that no two readers can disagree on a message.
///
/// The parser never traps and never recurses: containers are kept on an explicit stack whose height is
/// checked against `Limits.maxDepth` before each push. Every size limit is checked while scanning, so an
/// oversized string or document is refused before it is copied.
public struct JSONParser: Sendable {
    /// The limits applied to each document.
    public var limits: Limits

    /// Creates a parser.
    ///
    /// - Parameter limits: The limits for hostile input; `.default` suits small client messages.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Parses one JSON text (RFC 8259 §2) that must fill `bytes` exactly, surrounded only by whitespace.
    ///
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the byte offset of the first problem.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(Error) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw Error(.inputTooLarge(limit: limits.maxBytes), offset: limits.maxBytes)
        }
        var reader = Reader(bytes: bytes, limits: limits, checksUTF8: true)
        return try reader.parseDocument()
    }

    /// Parses one JSON text that is already known to be well-formed UTF-8, without checking its UTF-8 again.
    ///
    /// For input whose encoding was validated on the way in, such as a WebSocket text message (RFC 6455 §8.1:
    /// the receiver fails the connection on invalid UTF-8 in a text message). Everything else is checked as by
    /// `parse(_:)`.
    ///
    /// - Precondition: `bytes` is well-formed UTF-8. Breaking it is memory-safe but not detected: ill-formed
    ///   sequences inside strings come out as U+FFFD, where `parse(_:)` would throw `invalidUTF8`.
    /// - Parameter bytes: UTF-8 encoded JSON text, validated by the caller.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the byte offset of the first problem.
    public func parse(validatedUTF8 bytes: UnsafeRawBufferPointer) throws(Error) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw Error(.inputTooLarge(limit: limits.maxBytes), offset: limits.maxBytes)
        }
        var reader = Reader(bytes: bytes, limits: limits, checksUTF8: false)
        return try reader.parseDocument()
    }

    /// Parses one JSON text from a byte collection such as `[UInt8]` or `ArraySlice<UInt8>`.
    ///
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the byte offset (from the start of `bytes`) of the first problem.
    public func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(Error) -> JSONValue {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Error) in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        if let contiguous {
            return try contiguous.get()
        }
        return try parse(Array(bytes))
    }

    /// Parses one JSON text from a string's UTF-8.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the UTF-8 byte offset of the first problem.
    public func parse(_ text: String) throws(Error) -> JSONValue {
        try parse(text.utf8)
    }
}

// MARK: - Limits

extension JSONParser {
    /// Bounds on a document's size and shape, so hostile input cannot exhaust memory, stack or time.
    public struct Limits: Hashable, Sendable {
        /// The deepest nesting of arrays and objects; the root container is at depth 1.
        public var maxDepth: Int
        /// The longest document, in bytes.
        public var maxBytes: Int
        /// The longest string or member name, in UTF-8 bytes after unescaping.
        public var maxStringLength: Int
        /// The most array elements plus object members, counted over the whole document.
        public var maxElements: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxDepth: The deepest nesting of arrays and objects.
        ///   - maxBytes: The longest document, in bytes.
        ///   - maxStringLength: The longest string or key, in UTF-8 bytes after unescaping.
        ///   - maxElements: The most array elements plus object members in the whole document.
        public init(maxDepth: Int = 32, maxBytes: Int = 1 << 20, maxStringLength: Int = 1 << 16,
                    maxElements: Int = 1 << 16) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
            self.maxStringLength = maxStringLength
            self.maxElements = maxElements
        }

        /// Depth 32, 1 MiB, strings of 64 KiB, 65,536 elements.
        public static let `default` = Limits()
    }
}

// MARK: - Errors

extension JSONParser {
    /// Why a document was rejected, and where.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// What was wrong.
        public var reason: Reason
        /// The zero-based byte offset of the problem in the input.
        public var offset: Int

        /// Creates an error.
        public init(_ reason: Reason, offset: Int) {
            self.reason = reason
            self.offset = offset
        }

        /// Every way a document can be rejected.
        public enum Reason: Hashable, Sendable {
            /// A byte that the grammar does not allow here.
            case unexpectedByte(UInt8, expected: Expectation)
            /// The input ended inside a value.
            case unexpectedEnd(expected: Expectation)
            /// RFC 8259 §7: a backslash followed by something other than `"\/bfnrtu`.
            case invalidEscape(UInt8)
            /// RFC 8259 §8.2: a `\uXXXX` surrogate that is not half of a high-low pair.
            case loneSurrogate(UInt16)
            /// RFC 8259 §8.1: bytes in a string that are not well-formed UTF-8.
            case invalidUTF8
            /// RFC 8259 §7: U+0000 to U+001F must be escaped inside strings.
            case unescapedControlCharacter(UInt8)
            /// RFC 8259 §6: an integer part may not start with `0` unless it is `0`.
            case leadingZero
            /// A number too large for a finite `Double` (RFC 8259 §6 lets implementations limit range).
            case numberOutOfRange
            /// RFC 8259 §4: member names SHOULD be unique; this parser requires it.
            case duplicateKey(String)
            /// Arrays and objects nested deeper than `Limits.maxDepth`.
            case depthLimitExceeded(limit: Int)
            /// A document longer than `Limits.maxBytes`.
            case inputTooLarge(limit: Int)
            /// A string or key longer than `Limits.maxStringLength` bytes.
            case stringTooLong(limit: Int)
            /// More elements and members than `Limits.maxElements`.
            case tooManyElements(limit: Int)
        }

        /// What the grammar allowed where the input went wrong.
        public enum Expectation: Hashable, Sendable {
            case value
            case memberName
            case colon
            case commaOrCloseBracket
            case commaOrCloseBrace
            case digit
            case hexDigit
            case closingQuote
            case endOfInput
            /// The rest of `true`, `false` or `null`.
            case literal(String)

            var phrase: String {
                switch self {
                case .value: "a value"
                case .memberName: "a member name in quotes"
                case .colon: "':'"
                case .commaOrCloseBracket: "',' or ']'"
                case .commaOrCloseBrace: "',' or '}'"
                case .digit: "a digit"
                case .hexDigit: "a hex digit"
                case .closingQuote: "a closing '\"'"
                case .endOfInput: "end of input"
                case .literal(let word): "'\(word)'"
                }
            }
        }

        /// A human-readable message such as "unexpected '}' at byte 17, expected a value".
        public var description: String {
            let at = "at byte \(offset)"
            switch reason {
            case .unexpectedByte(let byte, let expected):
                return "unexpected \(Self.show(byte)) \(at), expected \(expected.phrase)"
            case .unexpectedEnd(let expected):
                return "unexpected end of input \(at), expected \(expected.phrase)"
            case .invalidEscape(let byte):
                return "invalid escape '\\\(Self.showBare(byte))' \(at), "
                    + "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"
            case .loneSurrogate(let unit):
                return "lone surrogate \\u\(Self.hex(unit)) \(at), expected a high surrogate followed by a low one"
            case .invalidUTF8:
                return "invalid UTF-8 in string \(at)"
            case .unescapedControlCharacter(let byte):
                let code = Self.hex(UInt16(byte), width: 2)
                return "unescaped control character 0x\(code) in string \(at), expected an escape"
            case .leadingZero:
                return "leading zero in number \(at), expected '0' alone or a digit from 1 to 9 first"
            case .numberOutOfRange:
                return "number out of range \(at)"
            case .duplicateKey(let key):
                let shown = key.count > 40 ? key.prefix(40) + "…" : Substring(key)
                return "duplicate member name \"\(shown)\" \(at)"
            case .depthLimitExceeded(let limit):
                return "nesting deeper than \(limit) \(at)"
            case .inputTooLarge(let limit):
                return "input longer than \(limit) bytes"
            case .stringTooLong(let limit):
                return "string longer than \(limit) bytes \(at)"
            case .tooManyElements(let limit):
                return "more than \(limit) elements \(at)"
            }
        }

        private static func show(_ byte: UInt8) -> String {
            (0x21...0x7E).contains(byte) ? "'\(showBare(byte))'" : "0x\(hex(UInt16(byte), width: 2))"
        }

        private static func showBare(_ byte: UInt8) -> String {
            (0x20...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x\(hex(UInt16(byte), width: 2))"
        }

        private static func hex(_ value: UInt16, width: Int = 4) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }
}

// MARK: - Reader

/// The cursor over one document. Lives for one `parse` call.
private struct Reader {
    /// One open array or object. Only the field matching `isObject` is used; the other stays empty and unallocated.
    struct Frame {
        var isObject: Bool
        var array: [JSONValue] = []
        var object = JSONObject()
        /// The member name whose value is being parsed.
        var key = ""
    }

    typealias Error = JSONParser.Error

    static let initialMemberCapacity = 4

    let bytes: UnsafeRawBufferPointer
    let end: Int
    let limits: JSONParser.Limits
    /// False when the caller has validated the UTF-8 already: strings then take non-ASCII bytes as they come.
    let checksUTF8: Bool
    var position = 0
    var elementCount = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, limits: JSONParser.Limits, checksUTF8: Bool) {
        self.bytes = bytes
        self.end = bytes.count
        self.limits = limits
        self.checksUTF8 = checksUTF8
    }

    mutating func parseDocument() throws(Error) -> JSONValue {
        var stack: [Frame] = []
        var value: JSONValue

        parsingValue: while true {
            skipWhitespace()
            guard position < end else { throw Error(.unexpectedEnd(expected: .value), offset: position) }
            if !stack.isEmpty {
                // Counted before the value is parsed, so an oversized document is refused at its first excess element.
                elementCount += 1
                guard elementCount <= limits.maxElements else {
                    throw Error(.tooManyElements(limit: limits.maxElements), offset: position)
                }
            }
            let byte = bytes[position]
            switch byte {
            case ASCII.openBrace, ASCII.openBracket:
                guard stack.count < limits.maxDepth else {
                    throw Error(.depthLimitExceeded(limit: limits.maxDepth), offset: position)
                }
                position += 1
                skipWhitespace()
                if byte == ASCII.openBrace {
                    if position < end, bytes[position] == ASCII.closeBrace {
                        position += 1
                        value = .object(JSONObject())
                    } else {
                        var frame = Frame(isObject: true)
                        // Most objects in messages and states are small: one allocation instead of 1, 2, 4.
                        frame.object.reserveCapacity(Self.initialMemberCapacity)
                        frame.key = try parseMemberName(in: frame.object)
                        stack.append(frame)
                        continue parsingValue
                    }
                } else {
                    if position < end, bytes[position] == ASCII.closeBracket {
                        position += 1
                        value = .array([])
                    } else {
                        stack.append(Frame(isObject: false))
                        continue parsingValue
                    }
                }
            case ASCII.quote:
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case ASCII.minus, ASCII.zero...ASCII.nine:
                value = try parseNumber()
            default:
                throw Error(.unexpectedByte(byte, expected: .value), offset: position)
            }

            // A value is complete: add it to the open container, then close containers as long as they end.
            while let top = stack.indices.last {
                skipWhitespace()
                if stack[top].isObject {
                    stack[top].object.appendNew(key: stack[top].key, value: value)
                    guard position < end else {
                        throw Error(.unexpectedEnd(expected: .commaOrCloseBrace), offset: position)
                    }
                    switch bytes[position] {
                    case ASCII.comma:
                        position += 1
                        skipWhitespace()
                        stack[top].key = try parseMemberName(in: stack[top].object)
                        continue parsingValue
                    case ASCII.closeBrace:
                        position += 1
                        value = .object(stack.removeLast().object)
                    case let other:
                        throw Error(.unexpectedByte(other, expected: .commaOrCloseBrace), offset: position)
                    }
                } else {
                    stack[top].array.append(value)
                    guard position < end else {
                        throw Error(.unexpectedEnd(expected: .commaOrCloseBracket), offset: position)
                    }
                    switch bytes[position] {
                    case ASCII.comma:
                        position += 1
                        continue parsingValue
                    case ASCII.closeBracket:
                        position += 1
                        value = .array(stack.removeLast().array)
                    case let other:
                        throw Error(.unexpectedByte(other, expected: .commaOrCloseBracket), offset: position)
                    }
                }
            }

            skipWhitespace()
            guard position == end else {
                throw Error(.unexpectedByte(bytes[position], expected: .endOfInput), offset: position)
            }
            return value
        }
    }

    // MARK: Structure

    /// RFC 8259 §2: insignificant whitespace is space, tab, line feed and carriage return.
    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn:
                position += 1
            default:
                return
            }
        }
    }

    /// Parses `"name"` and the `:` after it, rejecting a name already in `object`.
    mutating func parseMemberName(in object: JSONObject) throws(Error) -> String {
        guard position < end else { throw Error(.unexpectedEnd(expected: .memberName), offset: position) }
        guard bytes[position] == ASCII.quote else {
            throw Error(.unexpectedByte(bytes[position], expected: .memberName), offset: position)
        }
        let keyOffset = position
        let key = try parseString()
        if object.index(forKey: key) != nil {
            throw Error(.duplicateKey(key), offset: keyOffset)
        }
        skipWhitespace()
        guard position < end else { throw Error(.unexpectedEnd(expected: .colon), offset: position) }
        guard bytes[position] == ASCII.colon else {
            throw Error(.unexpectedByte(bytes[position], expected: .colon), offset: position)
        }
        position += 1
        return key
    }

    mutating func expectLiteral(_ word: StaticString) throws(Error) {
        let count = word.utf8CodeUnitCount
        for index in 0..<count {
            let expected = word.utf8Start[index]
            guard position + index < end else {
                throw Error(.unexpectedEnd(expected: .literal(word.description)), offset: position + index)
            }
            guard bytes[position + index] == expected else {
                throw Error(.unexpectedByte(bytes[position + index], expected: .literal(word.description)),
                            offset: position + index)
            }
        }
        position += count
    }

    // MARK: Numbers

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(Error) -> JSONValue {
        let start = position
        let negative = bytes[position] == ASCII.minus
        if negative { position += 1 }
        guard position < end else { throw Error(.unexpectedEnd(expected: .digit), offset: position) }
        let first = bytes[position]
        if first == ASCII.zero {
            position += 1
            if position < end, isDigit(bytes[position]) { throw Error(.leadingZero, offset: start) }
        } else if isDigit(first) {
            skipDigits()
        } else {
            throw Error(.unexpectedByte(first, expected: .digit), offset: position)
        }
        let integerEnd = position
        var isInteger = true
        if position < end, bytes[position] == ASCII.dot {
            isInteger = false
            position += 1
            try requireDigits()
        }
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < end, bytes[position] == ASCII.plus || bytes[position] == ASCII.minus {
                position += 1
            }
            try requireDigits()
        }

        let digitsStart = negative ? start + 1 : start
        if isInteger, let integer = integer(digitsFrom: digitsStart, to: integerEnd, negative: negative) {
            // "-0" has no Int64 form; keep its sign as a double.
            return negative && integer == 0 ? .number(-0.0) : .integer(integer)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { throw Error(.numberOutOfRange, offset: start) }
        return .number(double)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

    mutating func skipDigits() {
        while position < end, isDigit(bytes[position]) { position += 1 }
    }

    mutating func requireDigits() throws(Error) {
        guard position < end else { throw Error(.unexpectedEnd(expected: .digit), offset: position) }
        guard isDigit(bytes[position]) else {
            throw Error(.unexpectedByte(bytes[position], expected: .digit), offset: position)
        }
        skipDigits()
    }

    /// The digits as `Int64`, or `nil` when out of range (the caller then falls back to `Double`).
    func integer(digitsFrom start: Int, to end: Int, negative: Bool) -> Int64? {
        let maxDigits = 19  // Int64.max has 19 digits; longer integer parts cannot fit.
        guard end - start <= maxDigits else { return nil }
        var magnitude: UInt64 = 0
        for index in start..<end {
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(bytes[index] &- ASCII.zero))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            if magnitude == Int64.min.magnitude { return Int64.min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    // MARK: Strings

    /// RFC 8259 §7. Strings without escapes are decoded straight from the input; others go through `scratch`.
    mutating func parseString() throws(Error) -> String {
        let quoteOffset = position
        let start = position + 1
        let limit = limits.maxStringLength
        var index = start
        while true {
            guard index < end else { throw Error(.unexpectedEnd(expected: .closingQuote), offset: index) }
            guard index - start <= limit else {
                throw Error(.stringTooLong(limit: limit), offset: quoteOffset)
            }
            let byte = bytes[index]
            if byte == ASCII.quote {
                position = index + 1
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == ASCII.backslash { break }
            if byte < ASCII.firstNonControl {
                throw Error(.unescapedControlCharacter(byte), offset: index)
            }
            if byte < 0x80 || !checksUTF8 {
                index += 1
            } else {
                let length = utf8SequenceLength(at: index)
                guard length > 0 else { throw Error(.invalidUTF8, offset: index) }
                index += length
            }
        }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard index < end else { throw Error(.unexpectedEnd(expected: .closingQuote), offset: index) }
            let byte = bytes[index]
            if byte == ASCII.quote {
                position = index + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == ASCII.backslash {
                index = try appendEscape(at: index)
            } else if byte < ASCII.firstNonControl {
                throw Error(.unescapedControlCharacter(byte), offset: index)
            } else if byte < 0x80 || !checksUTF8 {
                scratch.append(byte)
                index += 1
            } else {
                let length = utf8SequenceLength(at: index)
                guard length > 0 else { throw Error(.invalidUTF8, offset: index) }
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]))
                index += length
            }
            guard scratch.count <= limit else {
                throw Error(.stringTooLong(limit: limit), offset: quoteOffset)
            }
        }
    }

    /// Decodes the escape starting with the backslash at `index` into `scratch`; returns the index after it.
    mutating func appendEscape(at index: Int) throws(Error) -> Int {
        guard index + 1 < end else { throw Error(.unexpectedEnd(expected: .closingQuote), offset: index + 1) }
        let decoded: UInt8
        switch bytes[index + 1] {
        case ASCII.quote: decoded = ASCII.quote
        case ASCII.backslash: decoded = ASCII.backslash
        case ASCII.slash: decoded = ASCII.slash
        case UInt8(ascii: "b"): decoded = ASCII.backspace
        case UInt8(ascii: "f"): decoded = ASCII.formFeed
        case UInt8(ascii: "n"): decoded = ASCII.lineFeed
        case UInt8(ascii: "r"): decoded = ASCII.carriageReturn
        case UInt8(ascii: "t"): decoded = ASCII.tab
        case UInt8(ascii: "u"):
            return try appendUnicodeEscape(at: index)
        case let other:
            throw Error(.invalidEscape(other), offset: index)
        }
        scratch.append(decoded)
        return index + 2
    }

    /// RFC 8259 §7, §8.2: `\uXXXX`, where a high surrogate must be followed by `\uXXXX` with a low surrogate.
    mutating func appendUnicodeEscape(at index: Int) throws(Error) -> Int {
        let unit = try hexQuad(at: index + 2)
        var scalar = UInt32(unit)
        var next = index + 6
        switch unit {
        case 0xD800...0xDBFF:
            guard next + 1 < end, bytes[next] == ASCII.backslash, bytes[next + 1] == UInt8(ascii: "u") else {
                throw Error(.loneSurrogate(unit), offset: index)
            }
            let low = try hexQuad(at: next + 2)
            guard (0xDC00...0xDFFF).contains(low) else { throw Error(.loneSurrogate(unit), offset: index) }
            scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        case 0xDC00...0xDFFF:
            throw Error(.loneSurrogate(unit), offset: index)
        default:
            break
        }
        appendUTF8(scalar)
        return next
    }

    func hexQuad(at index: Int) throws(Error) -> UInt16 {
        var value: UInt16 = 0
        for offset in index..<index + 4 {
            guard offset < end else { throw Error(.unexpectedEnd(expected: .hexDigit), offset: offset) }
            let byte = bytes[offset]
            let nibble: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: nibble = byte - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: throw Error(.unexpectedByte(byte, expected: .hexDigit), offset: offset)
            }
            value = value << 4 | UInt16(nibble)
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index` (Unicode §3.9, table 3-7), or 0 if it is
    /// ill-formed or truncated: this rejects overlong forms, encoded surrogates and scalars above U+10FFFF.
    func utf8SequenceLength(at index: Int) -> Int {
        @inline(__always) func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < end && range.contains(bytes[index + offset])
        }
        switch bytes[index] {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
