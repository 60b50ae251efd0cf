/// Base64 (RFC 4648 §4, standard alphabet, with padding).
///
/// RFC 6455 §4.1 and §4.2.2 carry the handshake key and accept value in base64; this module imports nothing, so
/// it ships its own. Decoding is strict (padding required, no whitespace, unused bits zero) because the only
/// input we decode is `Sec-WebSocket-Key`, which every client generates canonically.
public enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let padding = UInt8(ascii: "=")

    /// The base64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(second == nil ? padding : alphabet[Int(group >> 6 & 0x3F)])
            output.append(third == nil ? padding : alphabet[Int(group & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes encoded by `text`, or nil when it is not canonical padded base64.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(bytes: Array(text.utf8))
    }

    /// The bytes encoded by the ASCII base64 text `bytes`, or nil when it is not canonical padded base64.
    public static func decode(bytes: some Collection<UInt8>) -> [UInt8]? {
        let input = Array(bytes)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            let paddingCount = isLast ? (input[index + 3] == padding ? (input[index + 2] == padding ? 2 : 1) : 0) : 0
            var group: UInt32 = 0
            for position in 0..<4 {
                let byte = input[index + position]
                let value: UInt32
                if position >= 4 - paddingCount {
                    value = 0
                } else if let decoded = sextet(byte) {
                    value = decoded
                } else {
                    return nil
                }
                group = group << 6 | value
            }
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            if paddingCount < 2 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if paddingCount < 1 { output.append(UInt8(truncatingIfNeeded: group)) }
            // RFC 4648 §3.5: bits past the last encoded byte must be zero in canonical text.
            if paddingCount == 2 && group & 0xFFFF != 0 { return nil }
            if paddingCount == 1 && group & 0xFF != 0 { return nil }
            index += 4
        }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
