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
