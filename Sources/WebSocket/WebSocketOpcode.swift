/// A frame opcode: the low 4 bits of a frame's first byte.
///
/// RFC 6455 §5.2: opcodes 0x3-0x7 and 0xB-0xF are reserved. The type wraps the raw bits rather than being an
/// enum so a reserved opcode read off the wire is still representable (and can be reported in an error).
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The opcode's 4 bits, 0...15.
    public var rawValue: UInt8

    /// Wraps `rawValue`; only its low 4 bits are kept, because an opcode is a 4-bit field.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x0F
    }

    /// RFC 6455 §5.4: a continuation fragment of a fragmented message.
    public static let continuation = WebSocketOpcode(rawValue: 0x0)
    /// RFC 6455 §5.6: a text message, UTF-8 encoded.
    public static let text = WebSocketOpcode(rawValue: 0x1)
    /// RFC 6455 §5.6: a binary message.
    public static let binary = WebSocketOpcode(rawValue: 0x2)
    /// RFC 6455 §5.5.1: the close control frame.
    public static let close = WebSocketOpcode(rawValue: 0x8)
    /// RFC 6455 §5.5.2: the ping control frame.
    public static let ping = WebSocketOpcode(rawValue: 0x9)
    /// RFC 6455 §5.5.3: the pong control frame.
    public static let pong = WebSocketOpcode(rawValue: 0xA)

    /// RFC 6455 §5.5: control frames are those whose opcode has its most significant bit set.
    public var isControl: Bool { rawValue & 0x08 != 0 }

    /// Whether RFC 6455 defines this opcode; the reserved ones fail the connection when received (§5.2).
    public var isDefined: Bool {
        switch rawValue {
        case 0x0, 0x1, 0x2, 0x8, 0x9, 0xA: return true
        default: return false
        }
    }

    public var description: String {
        switch rawValue {
        case 0x0: return "continuation"
        case 0x1: return "text"
        case 0x2: return "binary"
        case 0x8: return "close"
        case 0x9: return "ping"
        case 0xA: return "pong"
        default: return "reserved(0x\(String(rawValue, radix: 16)))"
        }
    }
}
