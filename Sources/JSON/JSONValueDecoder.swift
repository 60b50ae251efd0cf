/// Decodes `Decodable` values from `JSONValue` trees, such as `JSONParser` produces from a client's message.
///
/// The mapping mirrors `JSONValueEncoder` and Swift's `JSONDecoder`:
/// - integers accept a JSON integer or a number with an exact integral value in range (`3.0` is 3; `2.5` and
///   `1e30` are `dataCorrupted` for `Int`); `Double` and `Float` accept either kind of number;
/// - `decodeIfPresent` (which synthesized conformances use for optional properties) gives nil for an absent
///   member and for `null`; `decodeNil` is true for `null`;
/// - a `JSONValue` inside the decoded type receives the value as it is.
///
/// Errors carry the coding path of the value at fault, as `JSONDecoder`'s do: `keyNotFound` (the path of the
/// object missing the member), `valueNotFound` (`null`, or past the end of an array), `typeMismatch` (another
/// kind of value) and `dataCorrupted` (a number the type cannot hold, an unread member when refused).
public struct JSONValueDecoder: Sendable {
    /// Whether `decode(_:from:)` refuses an object with a top-level member the type did not read, with
    /// `DecodingError.dataCorrupted` naming the first such member: a message or a setting the type does not
    /// know is then an error instead of being ignored. Off by default, like `JSONDecoder`.
    public var rejectsUnreadKeys = false

    /// Creates a decoder.
    public init() {}

    /// Decodes a `T` from `value`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON to read.
    /// - Returns: The decoded value.
    /// - Throws: The `DecodingError` describing the first value at fault. An error of another type thrown by an
    ///   `init(from:)` is wrapped in `dataCorrupted` as its `underlyingError`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(DecodingError) -> T {
        guard rejectsUnreadKeys else {
            let decoder = ValueDecoder.takeRoot(value, tracksReads: false)
            defer { decoder.endRoot() }
            return try Self.decode(type, from: decoder)
        }
        var unread: [String] = []
        let result = try decode(type, from: value, unreadKeys: &unread)
        if let first = unread.first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [CodingPathKey(stringValue: first)],
                debugDescription: "Unknown member \"\(first)\": \(T.self) has no such key."))
        }
        return result
    }

    /// Decodes a `T` from `value` and reports the members of the top-level object that `T` did not read.
    ///
    /// A member counts as read once the type decoded it (`decode`, `decodeIfPresent`, `decodeNil`, a nested
    /// container or a super decoder for its key); `contains` and `allKeys` do not read. Members of nested
    /// objects are not tracked.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON to read.
    ///   - unreadKeys: Set to the keys of the top-level members never read, in the object's order; empty when
    ///     `value` is not an object. Left as it was when decoding throws.
    /// - Returns: The decoded value.
    /// - Throws: As `decode(_:from:)`, without refusing unread members.
    public func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, unreadKeys: inout [String]
    ) throws(DecodingError) -> T {
        let decoder = ValueDecoder.takeRoot(value, tracksReads: true)
        defer { decoder.endRoot() }
        let result = try Self.decode(type, from: decoder)
        var unread: [String] = []
        if case .object(let object) = value {
            let plain = object
            // No keyed container was asked for: nothing was read.
            let flags = decoder.readFlags
            for position in 0..<plain.count where position >= flags.count || !flags[position] {
                unread.append(plain.key(at: position))
            }
        }
        unreadKeys = unread
        return result
    }

    private static func decode<T: Decodable>(_ type: T.Type, from decoder: ValueDecoder) throws(DecodingError) -> T {
        do {
            return try T(from: decoder)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "\(T.self) failed to decode: \(error)", underlyingError: error))
        }
    }
}
