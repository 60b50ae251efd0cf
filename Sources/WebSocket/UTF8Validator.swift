/// An incremental UTF-8 validator (RFC 3629), fed a message in arbitrary chunks.
///
/// RFC 6455 §8.1 makes invalid UTF-8 in a text message fail the connection; validating each chunk as it arrives
/// lets a bad byte fail the connection at once (Autobahn section 6 checks this fail-fast behaviour) instead of
/// after the whole message was buffered. The state is one byte, so it fits in the session.
public struct UTF8Validator: Hashable, Sendable {
    /// Where we are inside a multi-byte sequence; named after what the next byte must be.
    private enum State: UInt8 {
        case boundary           // between characters
        case tail1              // 1 more 80-BF byte
        case tail2              // 2 more 80-BF bytes
        case tail3              // 3 more 80-BF bytes
        case afterE0            // A0-BF, then 1 more: rejects overlong 3-byte forms
        case afterED            // 80-9F, then 1 more: rejects UTF-16 surrogates D800-DFFF
        case afterF0            // 90-BF, then 2 more: rejects overlong 4-byte forms
        case afterF4            // 80-8F, then 2 more: rejects code points above U+10FFFF
        case invalid
    }

    private var state: State = .boundary

    /// A validator at the start of a message.
    public init() {}

    /// True when everything fed so far is valid and ends on a character boundary, i.e. a message ending here
    /// is valid.
    public var isComplete: Bool { state == .boundary }

    /// True once an invalid byte was seen; stays true until `reset()`.
    public var hasFailed: Bool { state == .invalid }

    /// Starts over for a new message.
    public mutating func reset() { state = .boundary }

    /// Feeds the next chunk of the message.
    ///
    /// - Returns: false as soon as a byte cannot continue valid UTF-8; a sequence cut at the end of the chunk
    ///   is fine (it may continue in the next chunk), check `isComplete` at the end of the message.
    @discardableResult
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return state != .invalid }
        let count = bytes.count
        var state = self.state
        var index = 0
        while index < count {
            if state == .boundary {
                // Text in this server is mostly ASCII JSON, so skip 8 ASCII bytes per step.
                while index &+ 8 <= count,
                      base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index &+= 8
                }
                if index == count { break }
            }
            state = Self.step(state, base.load(fromByteOffset: index, as: UInt8.self))
            if state == .invalid { break }
            index &+= 1
        }
        self.state = state
        return state != .invalid
    }

    /// Whether `bytes` is, as a whole, valid UTF-8.
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if isASCII(bytes) { return true }
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isComplete
    }

    /// Whether every byte is below 0x80: the common message (JSON, an echo) checked 32 bytes a step with one
    /// test per step, before the byte-by-byte walk that anything else needs.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index &+ 32 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self)
            if word & high != 0 { return false }
            index &+= 32
        }
        var rest: UInt64 = 0
        while index &+ 8 <= count {
            rest |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < count {
            rest |= UInt64(base.load(fromByteOffset: index, as: UInt8.self))
            index &+= 1
        }
        return rest & high == 0
    }

    /// Whether `bytes` is, as a whole, valid UTF-8.
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let result = bytes.withContiguousStorageIfAvailable({ isValid(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { isValid($0) }
    }

    @inline(__always)
    private static func step(_ state: State, _ byte: UInt8) -> State {
        switch state {
        case .boundary:
            switch byte {
            case 0x00...0x7F: return .boundary
            case 0xC2...0xDF: return .tail1
            case 0xE0: return .afterE0
            case 0xED: return .afterED
            case 0xE1...0xEC, 0xEE...0xEF: return .tail2
            case 0xF0: return .afterF0
            case 0xF1...0xF3: return .tail3
            case 0xF4: return .afterF4
            default: return .invalid  // 80-BF stray continuation, C0/C1 overlong, F5-FF beyond U+10FFFF
            }
        case .tail1: return (0x80...0xBF).contains(byte) ? .boundary : .invalid
        case .tail2: return (0x80...0xBF).contains(byte) ? .tail1 : .invalid
        case .tail3: return (0x80...0xBF).contains(byte) ? .tail2 : .invalid
        case .afterE0: return (0xA0...0xBF).contains(byte) ? .tail1 : .invalid
        case .afterED: return (0x80...0x9F).contains(byte) ? .tail1 : .invalid
        case .afterF0: return (0x90...0xBF).contains(byte) ? .tail2 : .invalid
        case .afterF4: return (0x80...0x8F).contains(byte) ? .tail2 : .invalid
        case .invalid: return .invalid
        }
    }
}
