/// Negotiation of the permessage-deflate extension (RFC 7692 §5, §7.1), both sides. Pure: the compression itself
/// lives with the connection state; this only decides what the two ends agreed to.
public enum PerMessageDeflate {
    /// RFC 7692 §7: the extension's registered name.
    public static let name = "permessage-deflate"
    /// RFC 7692 §7.1.2: LZ77 window sizes are 2^8 to 2^15 bytes.
    public static let windowBits = 8...15
    /// zlib refuses an 8-bit window for raw deflate streams (it needs 9 to 15), so a window of 8 is used as 9 where
    /// the RFC leaves the choice to us (RFC 7692 §7.1.2.2: a client may use a smaller window than allowed).
    public static let usableWindowBits = 9...15

    /// One side's window limit as a peer stated it.
    public enum WindowLimit: Sendable, Hashable {
        /// Not mentioned: the sender may use up to 15 bits.
        case unspecified
        /// `client_max_window_bits` without a value in an offer: the client can take a limit from the server
        /// (RFC 7692 §7.1.2.2).
        case supported
        /// A stated limit, 8 to 15.
        case bits(Int)
    }

    /// The parameters of one offer or response (RFC 7692 §7.1).
    public struct Parameters: Sendable, Hashable {
        /// §7.1.1.1: the server resets its compression context after each message.
        public var serverNoContextTakeover = false
        /// §7.1.1.2: the client resets its compression context after each message.
        public var clientNoContextTakeover = false
        /// §7.1.2.1: the largest window the server may compress with.
        public var serverMaxWindowBits = WindowLimit.unspecified
        /// §7.1.2.2: the largest window the client may compress with.
        public var clientMaxWindowBits = WindowLimit.unspecified

        public init() {}

        /// Why parameters are refused: a server declines the offer (§7.1), a client fails the connection (§5).
        public enum Refusal: Error, Sendable, Hashable {
            /// A parameter the extension does not define.
            case unknownParameter(String)
            /// In a response: an extension the client did not offer, or permessage-deflate more than once.
            case unexpectedExtension(String)
            /// The same parameter twice.
            case duplicateParameter(String)
            /// A value where none is allowed, none where one is needed, or one out of range.
            case invalidValue(String)
        }

        /// Reads an offer (`forOffer`, client to server) or a response (server to client).
        ///
        /// The two differ in one place: only an offer may carry `client_max_window_bits` without a value.
        ///
        /// - Throws: `Refusal` naming the first parameter that breaks §7.1.
        public init(_ raw: [(name: String, value: String?)], forOffer: Bool) throws(Refusal) {
            var seen: Set<String> = []
            for (name, value) in raw {
                guard seen.insert(name).inserted else { throw .duplicateParameter(name) }
                switch name {
                case "server_no_context_takeover":
                    guard value == nil else { throw .invalidValue(name) }
                    serverNoContextTakeover = true
                case "client_no_context_takeover":
                    guard value == nil else { throw .invalidValue(name) }
                    clientNoContextTakeover = true
                case "server_max_window_bits":
                    guard let value else { throw .invalidValue(name) }
                    serverMaxWindowBits = .bits(try Self.bits(value, name))
                case "client_max_window_bits":
                    if let value {
                        clientMaxWindowBits = .bits(try Self.bits(value, name))
                    } else {
                        guard forOffer else { throw .invalidValue(name) }
                        clientMaxWindowBits = .supported
                    }
                default:
                    throw .unknownParameter(name)
                }
            }
        }

        /// §7.1.2: `1*DIGIT` without a leading zero, 8 to 15 (a quoted value is held to the same rule).
        private static func bits(_ text: String, _ name: String) throws(Refusal) -> Int {
            guard let first = text.utf8.first, first != UInt8(ascii: "0"),
                  text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let number = Int(text), PerMessageDeflate.windowBits.contains(number) else {
                throw .invalidValue(name)
            }
            return number
        }

        /// The parameters as a header element, `permessage-deflate; ...`, in the RFC's order.
        public var headerValue: String {
            var text = PerMessageDeflate.name
            if serverNoContextTakeover { text += "; server_no_context_takeover" }
            if clientNoContextTakeover { text += "; client_no_context_takeover" }
            if case .bits(let bits) = serverMaxWindowBits { text += "; server_max_window_bits=\(bits)" }
            switch clientMaxWindowBits {
            case .unspecified: break
            case .supported: text += "; client_max_window_bits"
            case .bits(let bits): text += "; client_max_window_bits=\(bits)"
            }
            return text
        }
    }

    /// What a server settles for: the agreed parameters, to send back and to run the connection with.
    public struct Agreement: Sendable, Hashable {
        /// The response's parameters (the `Sec-WebSocket-Extensions` value is `response.headerValue`).
        public var response: Parameters
        /// The window the server compresses with (`usableWindowBits`).
        public var serverWindowBits: Int
        /// The window the server must be able to inflate with: the client's limit, or 15.
        public var clientWindowBits: Int
    }

    /// Picks the first acceptable permessage-deflate offer, as a server (RFC 7692 §5.1, §7.1).
    ///
    /// Offers of other extensions are passed over. An offer is declined (and the next one tried) when its
    /// parameters break §7.1, or when it limits the server to a window of 8 bits, which zlib cannot compress
    /// with. The response always carries `client_no_context_takeover` when `resetClientContext` is set: the
    /// client then starts every message afresh, so the server's inflater needs no window kept per connection.
    ///
    /// - Parameters:
    ///   - offers: the client's offers in its order of preference.
    ///   - resetClientContext: whether to ask for `client_no_context_takeover` (a server may add it, §7.1.1.2).
    ///   - serverWindowBits: the window the server means to compress with when the offer sets no limit; it is
    ///     stated in the response (§7.1.2.1 allows that even when the offer did not ask), so the client's
    ///     inflater can be that small. An offer's lower limit still wins.
    /// - Returns: the agreement, or nil to go on without the extension.
    public static func accept(_ offers: [ExtensionOffer], resetClientContext: Bool,
                              serverWindowBits preferred: Int? = nil) -> Agreement? {
        precondition(preferred.map { usableWindowBits.contains($0) } ?? true, "a window of 9 to 15 bits")
        for offer in offers where offer.name == name {
            guard let asked = try? Parameters(offer.parameters, forOffer: true) else { continue }
            var response = Parameters()
            response.serverNoContextTakeover = asked.serverNoContextTakeover
            response.clientNoContextTakeover = asked.clientNoContextTakeover || resetClientContext
            var serverBits = preferred ?? 15
            if case .bits(let limit) = asked.serverMaxWindowBits {
                guard usableWindowBits.contains(limit) else { continue }
                // §7.1.2.1: the response echoes the limit the server agrees to (or a smaller one).
                serverBits = min(limit, serverBits)
                response.serverMaxWindowBits = .bits(serverBits)
            } else if let preferred {
                response.serverMaxWindowBits = .bits(preferred)
            }
            var clientBits = 15
            if case .bits(let limit) = asked.clientMaxWindowBits {
                // §7.1.2.2: a limit in the offer is a hint; the response may state it, the client keeps to it.
                // An 8 is inflated with a 9-bit window, which covers it.
                response.clientMaxWindowBits = .bits(limit)
                clientBits = max(limit, usableWindowBits.lowerBound)
            }
            return Agreement(response: response, serverWindowBits: serverBits, clientWindowBits: clientBits)
        }
        return nil
    }

    /// Checks a server's response against what the client offered (RFC 7692 §5.1, §7.1), as a client.
    ///
    /// - Parameters:
    ///   - response: the server's `Sec-WebSocket-Extensions` elements.
    ///   - offered: the parameters the client sent in its one permessage-deflate offer.
    /// - Returns: the agreed parameters, or nil when the server did not accept the extension.
    /// - Throws: `Parameters.Refusal` when the response must fail the connection: another extension the client
    ///   did not offer, permessage-deflate twice, a bad parameter, a server window above the offered limit, or a
    ///   client window limit the client did not say it supports.
    public static func check(_ response: [ExtensionOffer], offered: Parameters) throws(Parameters.Refusal)
        -> Parameters?
    {
        guard let element = response.first else { return nil }
        guard element.name == name else { throw .unexpectedExtension(element.name) }
        guard response.count == 1 else { throw .unexpectedExtension(response[1].name) }
        let agreed = try Parameters(element.parameters, forOffer: false)
        if offered.serverNoContextTakeover && !agreed.serverNoContextTakeover {
            throw .invalidValue("server_no_context_takeover")
        }
        if case .bits(let limit) = offered.serverMaxWindowBits {
            guard case .bits(let bits) = agreed.serverMaxWindowBits, bits <= limit else {
                throw .invalidValue("server_max_window_bits")
            }
        }
        if case .bits = agreed.clientMaxWindowBits, offered.clientMaxWindowBits == .unspecified {
            throw .invalidValue("client_max_window_bits")
        }
        return agreed
    }
}
