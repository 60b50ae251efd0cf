extension JSONParser {
    /// The cursor over one document. Lives for one `parse` call; its number and string scanners are in
    /// `JSONParser+Numbers.swift` and `JSONParser+Strings.swift`.
    struct Reader {
        /// One open array or object. Only the field matching `isObject` is used; the other stays empty and
        /// unallocated.
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
                    // Counted before the value is parsed, so an oversized document is refused at its first excess
                    // element.
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
    }
}
