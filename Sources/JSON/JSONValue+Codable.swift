/// A `JSONValue` is Codable so that a type can carry free-form JSON (a game's settings, a raw part of a message).
/// `JSONValueEncoder` and `JSONValueDecoder` take it as it is; other coders go through its cases.
extension JSONValue: Codable {
    /// Encodes the value with whatever containers its case needs; object members keep their order.
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? ValueEncoder {
            encoder.setSingle(self)
            return
        }
        switch self {
        case .null, .bool, .integer, .number, .string:
            var container = encoder.singleValueContainer()
            try encodeScalar(into: &container)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .object(let object):
            var container = encoder.container(keyedBy: CodingPathKey.self)
            for (key, value) in object {
                try container.encode(value, forKey: CodingPathKey(stringValue: key))
            }
        }
    }

    /// Writes a scalar case into `container`; arrays and objects take containers of their own (`encode(to:)`).
    private func encodeScalar(into container: inout any SingleValueEncodingContainer) throws {
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array, .object: preconditionFailure("encodeScalar(into:) takes scalars only")
        }
    }

    /// Decodes whatever JSON the decoder holds, trying each kind in turn (a generic `Decoder` cannot say which
    /// kind it holds): `null`, a Boolean, an integer, a double, a string, an object, an array.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ValueDecoder {
            self = decoder.value
            if decoder.tracksReads, case .object = decoder.value {
                // Size the flags as a keyed container would, then mark them all.
                _ = try decoder.container(keyedBy: CodingPathKey.self)
                decoder.markAllRead()
            }
            return
        }
        if let container = try? decoder.singleValueContainer(), let scalar = Self.scalar(in: container) {
            self = scalar
            return
        }
        if let container = try? decoder.container(keyedBy: CodingPathKey.self) {
            var object = JSONObject()
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
            return
        }
        var container = try decoder.unkeyedContainer()
        var elements: [JSONValue] = []
        while !container.isAtEnd {
            elements.append(try container.decode(JSONValue.self))
        }
        self = .array(elements)
    }

    /// The `null`, Boolean, integer, double or string `container` holds, tried in that order; `nil` for none.
    private static func scalar(in container: any SingleValueDecodingContainer) -> JSONValue? {
        if container.decodeNil() { return .null }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(Int64.self) { return .integer(value) }
        if let value = try? container.decode(Double.self) { return .number(value) }
        if let value = try? container.decode(String.self) { return .string(value) }
        return nil
    }
}
