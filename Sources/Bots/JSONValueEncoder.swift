import JSON

/// Encodes an `Encodable` (a game's typed move) as a `JSONValue`, for the bots to send it as the server reads it.
///
/// Small on purpose: moves are flat objects of strings and numbers, so this supports keyed and unkeyed
/// containers and single values, and builds the tree directly instead of going through text.
struct JSONValueEncoder {
    func encode(_ value: some Encodable) throws -> JSONValue {
        let node = Node()
        try value.encode(to: TreeEncoder(node: node, codingPath: []))
        return node.built
    }
}

/// A place in the tree being built: containers write into it, nested ones through child nodes.
private final class Node {
    var value: JSONValue = .null
    private var members: [(String, Node)] = []
    private var elements: [Node] = []
    private var kind = Kind.single

    enum Kind { case single, object, array }

    func becomeObject() {
        if kind != .object { kind = .object; members = [] }
    }

    func becomeArray() {
        if kind != .array { kind = .array; elements = [] }
    }

    func child(forKey key: String) -> Node {
        let node = Node()
        members.removeAll { $0.0 == key }
        members.append((key, node))
        return node
    }

    func appendChild() -> Node {
        let node = Node()
        elements.append(node)
        return node
    }

    /// The finished tree under this node.
    var built: JSONValue {
        switch kind {
        case .single: return value
        case .array: return .array(elements.map(\.built))
        case .object:
            var object: JSONValue = [:]
            for (key, node) in members { object[key] = node.built }
            return object
        }
    }
}

private struct TreeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedTree(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedTree(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTree(node: node, codingPath: codingPath)
    }
}

/// Turns one primitive or nested `Encodable` into `node`'s value.
private func store(_ value: some Encodable, in node: Node, codingPath: [any CodingKey]) throws {
    switch value {
    case let string as String: node.value = .string(string)
    case let bool as Bool: node.value = .bool(bool)
    case let int as Int: node.value = JSONValue(int)
    case let double as Double: node.value = JSONValue(double)
    default:
        if let integer = value as? any BinaryInteger, let exact = Int64(exactly: integer) {
            node.value = .integer(exact)
        } else if let float = value as? Float {
            node.value = JSONValue(Double(float))
        } else {
            try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
        }
    }
}

private struct KeyedTree<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).value = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, forKey: key) }

    private func put(_ value: some Encodable, forKey key: Key) throws {
        try store(value, in: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(KeyedTree<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.becomeArray()
        return UnkeyedTree(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedTree: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(node: Node, codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    mutating func encodeNil() throws {
        node.appendChild().value = .null
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }
    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }

    private mutating func put(_ value: some Encodable) throws {
        try store(value, in: node.appendChild(), codingPath: codingPath)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.becomeObject()
        count += 1
        return KeyedEncodingContainer(KeyedTree<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.becomeArray()
        count += 1
        return UnkeyedTree(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        count += 1
        return TreeEncoder(node: node.appendChild(), codingPath: codingPath)
    }
}

private struct SingleTree: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.value = .null }

    mutating func encode<T: Encodable>(_ value: T) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Bool) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: String) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Double) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Int) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Int8) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Int16) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Int32) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: Int64) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: UInt) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: UInt8) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: UInt16) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: UInt32) throws { try store(value, in: node, codingPath: codingPath) }
    mutating func encode(_ value: UInt64) throws { try store(value, in: node, codingPath: codingPath) }
}
