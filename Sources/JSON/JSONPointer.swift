/// A JSON Pointer (RFC 6901): a path of reference tokens such as `/words/0` or `/players/a~1b/score`.
///
/// Tokens are stored unescaped; `description` gives the RFC 6901 §3 string form, with `~` written as `~0` and
/// `/` as `~1`. Tokens compare byte by byte, like object member names.
public struct JSONPointer: Sendable {
    /// The unescaped reference tokens, outermost first. Empty for the whole document.
    public var tokens: [String]

    /// The pointer to the whole document (the empty string).
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from unescaped tokens.
    ///
    /// - Parameter tokens: Member names or array indices, outermost first.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the string form of RFC 6901 §3.
    ///
    /// - Parameter text: `""` or a sequence of `/token`, where `~0` stands for `~` and `~1` for `/`.
    /// - Throws: `JSONPointer.Error` if the text does not start with `/` or has a `~` not followed by `0` or `1`.
    public init(_ text: String) throws(Error) {
        tokens = []
        let utf8 = text.utf8
        guard let first = utf8.first else { return }
        guard first == ASCII.slash else { throw Error(.missingLeadingSlash, pointer: text, offset: 0) }
        var token: [UInt8] = []
        var offset = 1
        var iterator = utf8.dropFirst().makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case ASCII.slash:
                tokens.append(String(decoding: token, as: UTF8.self))
                token.removeAll(keepingCapacity: true)
            case Self.tilde:
                switch iterator.next() {
                case ASCII.zero?: token.append(Self.tilde)
                case UInt8(ascii: "1")?: token.append(ASCII.slash)
                default: throw Error(.invalidEscape, pointer: text, offset: offset)
                }
                offset += 1
            default:
                token.append(byte)
            }
            offset += 1
        }
        tokens.append(String(decoding: token, as: UTF8.self))
    }

    /// True when `self` is a proper prefix of `other`: RFC 6902 §4.4 forbids moving a value into its own child.
    public func isProperPrefix(of other: JSONPointer) -> Bool {
        tokens.count < other.tokens.count && zip(tokens, other.tokens).allSatisfy { $0.bytewiseEquals($1) }
    }

    /// Evaluates the pointer against `document` (RFC 6901 §4).
    ///
    /// - Parameter document: The value to look into.
    /// - Returns: The referenced value, or `nil` if a member is missing, an index is out of range or not of
    ///   the form `0` or `[1-9][0-9]*`, `-` is used (it names the element after the last), or a token meets a
    ///   scalar.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let member = object[token] else { return nil }
                current = member
            case .array(let elements):
                guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// RFC 6901 §4: an array index token is `0` or digits without a leading zero.
    ///
    /// - Parameter token: An unescaped reference token.
    /// - Returns: The index, or `nil` if the token is not an index (including `-` and absurdly long numbers).
    public static func arrayIndex(_ token: String) -> Int? {
        let maxIndexDigits = 15  // far beyond any array we hold; keeps the arithmetic free of overflow
        let utf8 = token.utf8
        guard let first = utf8.first, utf8.count <= maxIndexDigits else { return nil }
        if first == ASCII.zero { return utf8.count == 1 ? 0 : nil }
        var value = 0
        for byte in utf8 {
            guard byte >= ASCII.zero, byte <= ASCII.nine else { return nil }
            value = value * 10 + Int(byte - ASCII.zero)
        }
        return value
    }

    /// RFC 6901 §3: `~` escapes itself as `~0` and `/` as `~1`.
    static let tilde = UInt8(ascii: "~")
}

extension JSONPointer: Hashable {
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.count == rhs.tokens.count && zip(lhs.tokens, rhs.tokens).allSatisfy { $0.bytewiseEquals($1) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tokens.count)
        for token in tokens {
            token.hashBytes(into: &hasher)
        }
    }
}

extension JSONPointer: CustomStringConvertible {
    /// The RFC 6901 §3 string form, such as `/a~1b/m~0n`.
    public var description: String {
        var bytes: [UInt8] = []
        for token in tokens {
            bytes.append(ASCII.slash)
            for byte in token.utf8 {
                switch byte {
                case Self.tilde: bytes.append(contentsOf: [Self.tilde, ASCII.zero])
                case ASCII.slash: bytes.append(contentsOf: [Self.tilde, UInt8(ascii: "1")])
                default: bytes.append(byte)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONPointer {
    /// A string that is not a JSON Pointer.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// What was wrong.
        public var reason: Reason
        /// The text that failed to parse.
        public var pointer: String
        /// The zero-based UTF-8 offset of the problem in `pointer`.
        public var offset: Int

        /// Every way a pointer string can be malformed.
        public enum Reason: Hashable, Sendable {
            /// RFC 6901 §3: a non-empty pointer starts with `/`.
            case missingLeadingSlash
            /// RFC 6901 §3: `~` must be followed by `0` or `1`.
            case invalidEscape
        }

        init(_ reason: Reason, pointer: String, offset: Int) {
            self.reason = reason
            self.pointer = pointer
            self.offset = offset
        }

        /// A message such as "invalid JSON Pointer \"a/b\": expected '/' at byte 0".
        public var description: String {
            switch reason {
            case .missingLeadingSlash:
                "invalid JSON Pointer \"\(pointer)\": expected '/' at byte \(offset)"
            case .invalidEscape:
                "invalid JSON Pointer \"\(pointer)\": '~' at byte \(offset) must be followed by '0' or '1'"
            }
        }
    }
}
