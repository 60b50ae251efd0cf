// Strings and their UTF-8: RFC 8259 §7 and §8.1.
extension JSONParser.Reader {
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
