/// A JSON value (RFC 8259 §3).
///
/// Numbers have two cases so that integers round-trip exactly: the parser produces `.integer` for a number
/// without fraction or exponent that fits in `Int64`, and `.number` for anything else. Equality follows
/// RFC 6902 §4.6: numbers compare by numeric value (`.integer(1) == .number(1.0)`), strings by their bytes,
/// arrays element by element and objects member by member regardless of order.
///
/// Values are plain copy-on-write trees: share them across actors freely.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number. Non-finite values are not JSON (RFC 8259 §6) and serialize as `null`.
    case number(Double)
    /// A string of Unicode scalars (RFC 8259 §7).
    case string(String)
    /// An ordered list of values (RFC 8259 §5).
    case array([JSONValue])
    /// Named members in insertion order (RFC 8259 §4).
    case object(JSONObject)
}

// MARK: - Convenience initializers and accessors

extension JSONValue {
    /// Creates `.integer`.
    public init(_ value: Int) { self = .integer(Int64(value)) }
    /// Creates `.number`.
    public init(_ value: Double) { self = .number(value) }
    /// Creates `.string`.
    public init(_ value: String) { self = .string(value) }
    /// Creates `.bool`.
    public init(_ value: Bool) { self = .bool(value) }
    /// Creates `.array`.
    public init(_ value: [JSONValue]) { self = .array(value) }
    /// Creates `.object`.
    public init(_ value: JSONObject) { self = .object(value) }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as `Int64`, if it is an integer or a double with an exact integral value in range.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value): Self.exactInteger(value)
        default: nil
        }
    }

    /// The number as `Int`, if it has an exact integral value in range.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The number as `Double` (integers beyond 2^53 are rounded).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key` of an object; `nil` if absent or if this is not an object.
    ///
    /// Setting `nil` removes the member. Setting on a value that is not an object is a programming error.
    public subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard case .object(var object) = self else {
                preconditionFailure("JSONValue: setting member '\(key)' on a value that is not an object")
            }
            // Drop our reference first so `object` is uniquely referenced and mutates in place.
            self = .null
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` of an array; `nil` if out of range or if this is not an array.
    ///
    /// Setting `nil`, an element out of range, or on a value that is not an array is a programming error.
    public subscript(index: Int) -> JSONValue? {
        get {
            guard case .array(let array) = self, array.indices.contains(index) else { return nil }
            return array[index]
        }
        set {
            guard case .array(var array) = self, array.indices.contains(index), let newValue else {
                preconditionFailure("JSONValue: cannot set element \(index): out of range, nil, or not an array")
            }
            self = .null
            array[index] = newValue
            self = .array(array)
        }
    }
}

// MARK: - Equality

extension JSONValue: Hashable {
    /// RFC 6902 §4.6 equality: numbers by value, strings by code points, objects ignoring member order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.integer(let left), .integer(let right)):
            return left == right
        case (.number(let left), .number(let right)):
            return left == right
        case (.integer(let integer), .number(let double)), (.number(let double), .integer(let integer)):
            return Self.exactInteger(double) == integer
        case (.string(let left), .string(let right)):
            return left.bytewiseEquals(right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && (isIdentical(left, right) || left.elementsEqual(right))
        case (.object(let left), .object(let right)):
            return left == right
        default:
            return false
        }
    }

    /// Consistent with `==`: a double with an integral value hashes like the integer.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .number(let value):
            hasher.combine(2 as UInt8)
            if let integer = Self.exactInteger(value) {
                hasher.combine(integer)
            } else {
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(3 as UInt8)
            value.hashBytes(into: &hasher)
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements.count)
            for element in elements {
                element.hash(into: &hasher)
            }
        case .object(let object):
            hasher.combine(5 as UInt8)
            object.hash(into: &hasher)
        }
    }

    /// The double as `Int64` if it has an exact integral value in range.
    ///
    /// Not `Int64(exactly:)`: that rounds with `trunc` from libm, which a target importing nothing does not
    /// link. Converting in range and back is exact for every integral double and loses any fraction.
    static func exactInteger(_ double: Double) -> Int64? {
        let twoToThe63 = 9_223_372_036_854_775_808.0
        guard double >= -twoToThe63, double < twoToThe63 else { return nil }  // NaN fails both
        let integer = Int64(double)
        return Double(integer) == double ? integer : nil
    }

    /// Equal scalars, or containers that share storage: equal without looking inside (false does not mean
    /// different).
    public func isPlainlyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.integer(let left), .integer(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.string(let left), .string(let right)): left.bytewiseEquals(right)
        case (.array(let left), .array(let right)): Self.isIdentical(left, right)
        case (.object(let left), .object(let right)): left.isIdentical(to: right)
        default: false
        }
    }

    /// True when both arrays share one buffer: equal without comparing elements (the common case when a diff
    /// compares a state with its copy-on-write successor).
    static func isIdentical(_ left: [JSONValue], _ right: [JSONValue]) -> Bool {
        left.withUnsafeBufferPointer { leftBuffer in
            right.withUnsafeBufferPointer { rightBuffer in
                leftBuffer.baseAddress == rightBuffer.baseAddress && leftBuffer.count == rightBuffer.count
            }
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Keeps the literal's member order; a repeated key replaces the earlier value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value serialized as compact JSON by `JSONWriter`.
    public var description: String {
        String(decoding: JSONWriter().serialize(self), as: UTF8.self)
    }
}

// MARK: - Changing containers in place

extension JSONValue {
    /// Runs `body` on the array inside this value without copying it (it is moved out while `body` runs, so a
    /// uniquely referenced array is changed where it is). Returns nil, without calling `body`, if this value is
    /// not an array.
    public mutating func withArray<R>(_ body: (inout [JSONValue]) throws -> R) rethrows -> R? {
        guard case .array(var elements) = self else { return nil }
        self = .null
        defer { self = .array(elements) }
        return try body(&elements)
    }

    /// Runs `body` on the object inside this value without copying it (see `withArray`). Returns nil, without
    /// calling `body`, if this value is not an object.
    public mutating func withObject<R>(_ body: (inout JSONObject) throws -> R) rethrows -> R? {
        guard case .object(var object) = self else { return nil }
        self = .null
        defer { self = .object(object) }
        return try body(&object)
    }
}
