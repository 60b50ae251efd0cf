/// Encodes `Encodable` values as `JSONValue` trees, for `JSONWriter` to write or `JSONPatch` to diff.
///
/// The mapping is the one Swift's `JSONEncoder` uses, with JSON's two number kinds kept apart:
/// - a keyed container is `.object`, its members in the order they were encoded (a synthesized conformance
///   encodes in `CodingKeys` order, so that is the wire order);
/// - integers are `.integer` (an unsigned value above `Int64.max` is `.number` when a double holds it exactly);
///   `Double` and `Float` are `.number`, even with an integral value, so `2.0` is written `2.0` (a `Float` is
///   widened to `Double`: `Float(0.1)` is written `0.10000000149011612`, which decodes back to the same `Float`);
/// - `nil` (`encodeNil`) is `.null`; `encodeIfPresent` of `nil`, which synthesized conformances use for optional
///   properties, leaves the key out;
/// - dictionaries with `String` or `Int` keys are objects (the integer keys as their decimal text);
/// - a value that encodes nothing at all is `{}`.
///
/// A `JSONValue` inside an encoded value is taken as it is.
public struct JSONValueEncoder: Sendable {
    /// Whether `encodeIfPresent` of nil writes the key with `null` instead of leaving it out: what the room state
    /// and the data directory want, where an optional field is always present (so that a value coming or going
    /// is a `replace`). Off by default, like `JSONEncoder`.
    public var writesNilMembers = false

    /// Creates an encoder.
    public init(writesNilMembers: Bool = false) {
        self.writesNilMembers = writesNilMembers
    }

    /// Encodes `value`.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: Its JSON value.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` or `Float` (RFC 8259 §6 has no NaN or
    ///   infinity) or an unsigned integer that neither `Int64` nor a double holds exactly. An error of another
    ///   type thrown by an `encode(to:)` is wrapped in `invalidValue` as its `underlyingError`.
    public func encode<T: Encodable>(_ value: T) throws(EncodingError) -> JSONValue {
        let encoder = ValueEncoder.takeRoot()
        defer { encoder.endRoot() }
        encoder.writesNilMembers = writesNilMembers
        do {
            try value.encode(to: encoder)
            return try encoder.finish()
        } catch let error as EncodingError {
            throw error
        } catch {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "\(T.self) failed to encode: \(error)", underlyingError: error))
        }
    }
}
