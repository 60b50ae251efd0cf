/// One element of a `Sec-WebSocket-Extensions` header: an extension's name and its parameters, in order.
///
/// RFC 6455 §9.1:
///
///     Sec-WebSocket-Extensions = extension-list
///     extension-list = 1#extension
///     extension = extension-token *( ";" extension-param )
///     extension-param = token [ "=" (token | quoted-string) ]
///
/// A client lists its offers most preferred first, possibly several for one extension (alternatives with other
/// parameters), in one header or several. Parameter values keep their quoting removed; what a value must look
/// like is for the extension to say (RFC 7692 §7.1: a quoted value must still be a token).
public struct ExtensionOffer: Sendable, Hashable {
    /// The extension's token, lowercased (tokens compare case-insensitively).
    public var name: String
    /// The parameters as sent, names lowercased; `value` is nil for a parameter without `=`.
    public var parameters: [(name: String, value: String?)]

    public init(name: String, parameters: [(name: String, value: String?)] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// Why a header could not be read as an extension list.
    public enum ParseError: Error, Sendable, Equatable {
        /// An empty element or parameter name, or a character a token cannot hold where one was expected.
        case expectedToken(at: Int)
        /// A quoted string without its closing quote, or with a backslash at its very end.
        case unterminatedQuote
    }

    /// Every offer of every `Sec-WebSocket-Extensions` value, in order.
    ///
    /// - Parameter values: the header's values, one per header line (RFC 7230 §3.2.2 lets them be joined with
    ///   commas, which gives the same list).
    /// - Throws: `ParseError` when a value does not follow the grammar; a server then declines every extension.
    public static func parse(_ values: [String]) throws(ParseError) -> [ExtensionOffer] {
        var offers: [ExtensionOffer] = []
        for value in values {
            var scanner = Scanner(Array(value.utf8))
            try scanner.readList(into: &offers)
        }
        return offers
    }

    /// Every offer of a request's `Sec-WebSocket-Extensions` headers, in order (empty when it has none).
    public static func offers(in head: HTTPRequestHead) throws(ParseError) -> [ExtensionOffer] {
        try parse(head.headers.filter { HTTPHead.equalsIgnoringCase($0.name, "sec-websocket-extensions") }
            .map(\.value))
    }

    public static func == (lhs: ExtensionOffer, rhs: ExtensionOffer) -> Bool {
        lhs.name == rhs.name && lhs.parameters.elementsEqual(rhs.parameters) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        for parameter in parameters {
            hasher.combine(parameter.name)
            hasher.combine(parameter.value)
        }
    }

    /// A cursor over one header value.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// RFC 7230 §3.2.6 `tchar`: visible ASCII except the delimiters.
        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
        }

        /// The next byte after optional whitespace, not consumed.
        mutating func peek() -> UInt8? {
            skipSpace()
            return index < bytes.count ? bytes[index] : nil
        }

        mutating func token() throws(ParseError) -> String {
            skipSpace()
            let start = index
            while index < bytes.count, Self.isTokenByte(bytes[index]) { index += 1 }
            guard index > start else { throw .expectedToken(at: index) }
            return String(decoding: bytes[start..<index].map(HTTPHead.lowercased), as: UTF8.self)
        }

        /// A token or a quoted string (RFC 7230 §3.2.6), unquoted; case is kept.
        mutating func value() throws(ParseError) -> String {
            guard peek() == UInt8(ascii: "\"") else {
                let start = index
                while index < bytes.count, Self.isTokenByte(bytes[index]) { index += 1 }
                guard index > start else { throw .expectedToken(at: index) }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            index += 1
            var unquoted: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: unquoted, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw .unterminatedQuote }
                    unquoted.append(bytes[index])
                    index += 1
                default:
                    unquoted.append(byte)
                }
            }
            throw .unterminatedQuote
        }

        mutating func readList(into offers: inout [ExtensionOffer]) throws(ParseError) {
            while true {
                // RFC 7230 §7: empty list elements ("a, , b") are accepted and ignored.
                while peek() == UInt8(ascii: ",") { index += 1 }
                if peek() == nil { return }
                var offer = ExtensionOffer(name: try token())
                while peek() == UInt8(ascii: ";") {
                    index += 1
                    let name = try token()
                    var value: String?
                    if peek() == UInt8(ascii: "=") {
                        index += 1
                        value = try self.value()
                    }
                    offer.parameters.append((name, value))
                }
                offers.append(offer)
                switch peek() {
                case nil: return
                case UInt8(ascii: ","): index += 1
                default: throw .expectedToken(at: index)
                }
            }
        }
    }
}
