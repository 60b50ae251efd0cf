/// A Redis reply in RESP2, the Redis serialization protocol (https://redis.io/docs/reference/protocol-spec/).
enum RESPValue: Equatable, Sendable {
    case simple(String)
    case error(String)
    case integer(Int)
    /// nil is the null bulk string (`$-1`).
    case bulk([UInt8]?)
    /// nil is the null array (`*-1`).
    case array([RESPValue]?)

    /// A command as RESP: an array of bulk strings.
    static func encode(_ arguments: [String]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            let utf8 = Array(argument.utf8)
            bytes += Array("$\(utf8.count)\r\n".utf8)
            bytes += utf8
            bytes += [13, 10]
        }
        return bytes
    }

    enum ParseError: Error, Equatable {
        case malformed(String)
    }

    /// Parses one reply from the start of `bytes`: nil when more bytes are needed, else the reply and its length.
    static func parse(_ bytes: ArraySlice<UInt8>, depth: Int = 0) throws(ParseError) -> (RESPValue, Int)? {
        guard depth < 8 else { throw .malformed("replies nested too deeply") }
        guard let kind = bytes.first else { return nil }
        guard let lineEnd = bytes.indices.first(where: { $0 > bytes.startIndex && bytes[$0 - 1] == 13 && bytes[$0] == 10 })
        else { return nil }
        let line = String(decoding: bytes[(bytes.startIndex + 1)..<(lineEnd - 1)], as: UTF8.self)
        let headerLength = lineEnd + 1 - bytes.startIndex
        switch kind {
        case UInt8(ascii: "+"):
            return (.simple(line), headerLength)
        case UInt8(ascii: "-"):
            return (.error(line), headerLength)
        case UInt8(ascii: ":"):
            guard let number = Int(line) else { throw .malformed("bad integer '\(line)'") }
            return (.integer(number), headerLength)
        case UInt8(ascii: "$"):
            guard let length = Int(line), length >= -1, length <= 512 << 20 else { throw .malformed("bad length '\(line)'") }
            if length == -1 { return (.bulk(nil), headerLength) }
            let start = lineEnd + 1
            guard bytes.endIndex - start >= length + 2 else { return nil }
            guard bytes[start + length] == 13, bytes[start + length + 1] == 10 else {
                throw .malformed("bulk string without CRLF")
            }
            return (.bulk(Array(bytes[start..<(start + length)])), headerLength + length + 2)
        case UInt8(ascii: "*"):
            guard let count = Int(line), count >= -1, count <= 1 << 20 else { throw .malformed("bad count '\(line)'") }
            if count == -1 { return (.array(nil), headerLength) }
            var elements: [RESPValue] = []
            var offset = headerLength
            for _ in 0..<count {
                guard let (element, length) = try parse(bytes[(bytes.startIndex + offset)...], depth: depth + 1) else {
                    return nil
                }
                elements.append(element)
                offset += length
            }
            return (.array(elements), offset)
        default:
            throw .malformed("unknown reply type '\(Character(Unicode.Scalar(kind)))'")
        }
    }
}
