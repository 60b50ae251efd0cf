// Numbers: RFC 8259 §6.
extension JSONParser.Reader {
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
}
