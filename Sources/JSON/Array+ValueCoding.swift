// Arrays of any codable element, converted by the codec itself rather than through `Array`'s own `encode(to:)` and
// `init(from:)`: those run the standard library's unspecialized generic code, which looks up `Array<Element>`'s
// metadata on every append and grows the array step by step. Measured with callgrind on a view holding 8 structs,
// decoding through `init(from:)` spent more in `Array` than in the 8 elements together.

/// An array the encoder converts element by element.
protocol JSONArrayEncodable {
    /// The elements' JSON, each encoded below `encoder` at its index.
    func jsonElements(encoder: ValueEncoder) throws -> [JSONValue]
}

/// An array the decoder builds element by element.
protocol JSONArrayDecodable {
    /// The array of `elements`, each decoded below `decoder` at its index.
    static func decodeElements(_ elements: [JSONValue], decoder: ValueDecoder) throws -> Self
}

extension Array: JSONArrayEncodable where Element: Encodable {
    func jsonElements(encoder: ValueEncoder) throws -> [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(count)
        for index in indices {
            result.append(try encoder.box(self[index], at: .index(index)))
        }
        return result
    }
}

extension Array: JSONArrayDecodable where Element: Decodable {
    static func decodeElements(_ elements: [JSONValue], decoder: ValueDecoder) throws -> [Element] {
        // Written in place: `append` on an unspecialized `[Element]` costs a metadata look-up per call.
        try [Element](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
            for index in elements.indices {
                let element = try decoder.unbox(Element.self, from: elements[index], at: .index(index))
                (buffer.baseAddress! + index).initialize(to: element)
                initialized = index + 1
            }
        }
    }
}

/// The last type a coder asked about and whether it is an array, so that encoding or decoding the elements of a
/// list asks the runtime for the conformance once, not once per element.
struct ArrayConformanceCache<Conformance> {
    private var type: ObjectIdentifier?
    private var conformance: Conformance?

    /// The conformance of `T`, looked up by `lookUp` unless `T` was the type asked about last.
    @inline(__always)
    mutating func conformance<T>(of _: T.Type, lookUp: () -> Conformance?) -> Conformance? {
        let identifier = ObjectIdentifier(T.self)
        if type != identifier {
            type = identifier
            conformance = lookUp()
        }
        return conformance
    }
}
