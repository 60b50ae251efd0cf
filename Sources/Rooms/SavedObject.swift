import JSON

/// A JSON object read back from the data directory, with typed access to its members: a missing or mistyped
/// member throws `Unreadable` naming it, so a damaged record is refused whole instead of making a broken room.
///
/// Optional members may be absent or `null` (records written by the Codable journal left out nil values).
struct SavedObject {
    /// A record that cannot be brought back, and why.
    struct Unreadable: Error, Sendable, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    let members: JSONObject
    /// What the object is, for messages: "room", "Snowman snapshot".
    let what: String

    init(_ value: JSONValue, _ what: String) throws(Unreadable) {
        guard let members = value.objectValue else { throw Unreadable("the \(what) is not a JSON object") }
        self.members = members
        self.what = what
    }

    /// The member `key`, which must be there (it may be `null`).
    func value(_ key: String) throws(Unreadable) -> JSONValue {
        guard let value = members[key] else { throw Unreadable("the \(what) has no \"\(key)\"") }
        return value
    }

    /// The member `key`, or nil when it is absent or `null`.
    func optional(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws(Unreadable) -> String {
        try Self.string(value(key), "\"\(key)\" of the \(what)")
    }

    func int(_ key: String) throws(Unreadable) -> Int {
        try Self.int(value(key), "\"\(key)\" of the \(what)")
    }

    func double(_ key: String) throws(Unreadable) -> Double {
        guard let number = try value(key).doubleValue else { throw mistyped(key, "a number") }
        return number
    }

    func bool(_ key: String) throws(Unreadable) -> Bool {
        guard let flag = try value(key).boolValue else { throw mistyped(key, "true or false") }
        return flag
    }

    func optionalString(_ key: String) throws(Unreadable) -> String? { try ifPresent(key, string) }

    func optionalInt(_ key: String) throws(Unreadable) -> Int? { try ifPresent(key, int) }

    func optionalDouble(_ key: String) throws(Unreadable) -> Double? { try ifPresent(key, double) }

    func optionalBool(_ key: String) throws(Unreadable) -> Bool? { try ifPresent(key, bool) }

    /// The member `key` read by `read`, or nil when it is absent or `null`.
    private func ifPresent<T>(_ key: String, _ read: (String) throws(Unreadable) -> T) throws(Unreadable) -> T? {
        guard optional(key) != nil else { return nil }
        return try read(key)
    }

    /// The member `key` as an object of its own.
    func object(_ key: String) throws(Unreadable) -> SavedObject {
        try SavedObject(value(key), "\"\(key)\" of the \(what)")
    }

    /// The array `key`, each element read by `element`.
    func array<Element>(_ key: String, _ element: (JSONValue) throws(Unreadable) -> Element) throws(Unreadable)
        -> [Element] {
        guard let items = try value(key).arrayValue else { throw mistyped(key, "an array") }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try element(item)) }
        return result
    }

    /// The array `key`, or nil when it is absent or `null`.
    func optionalArray<Element>(_ key: String, _ element: (JSONValue) throws(Unreadable) -> Element)
        throws(Unreadable) -> [Element]? {
        guard optional(key) != nil else { return nil }
        return try array(key, element)
    }

    /// An array of objects, each read by `element`.
    func objects<Element>(_ key: String, _ element: (SavedObject) throws(Unreadable) -> Element) throws(Unreadable)
        -> [Element] {
        let what = "entry of \"\(key)\" of the \(self.what)"
        return try array(key) { (item) throws(Unreadable) in try element(SavedObject(item, what)) }
    }

    func optionalObjects<Element>(_ key: String, _ element: (SavedObject) throws(Unreadable) -> Element)
        throws(Unreadable) -> [Element]? {
        guard optional(key) != nil else { return nil }
        return try objects(key, element)
    }

    /// A string entry of a saved list.
    static func stringEntry(_ value: JSONValue) throws(Unreadable) -> String {
        try string(value, "a list entry")
    }

    // `what` is only for the error: written out on every read, it cost a string interpolation per member, 6% of
    // a restart that restores 1,250 rooms.
    static func string(_ value: JSONValue, _ what: @autoclosure () -> String) throws(Unreadable) -> String {
        guard let text = value.stringValue else { throw Unreadable("\(what()) is not a string") }
        return text
    }

    static func int(_ value: JSONValue, _ what: @autoclosure () -> String) throws(Unreadable) -> Int {
        guard let number = value.intValue else { throw Unreadable("\(what()) is not a whole number") }
        return number
    }

    static func bool(_ value: JSONValue, _ what: @autoclosure () -> String) throws(Unreadable) -> Bool {
        guard let flag = value.boolValue else { throw Unreadable("\(what()) is not true or false") }
        return flag
    }

    private func mistyped(_ key: String, _ expected: String) -> Unreadable {
        Unreadable("\"\(key)\" of the \(what) is not \(expected)")
    }
}
