extension JSONPatch {
    /// Decodes a patch document (RFC 6902 §3): an array of operation objects with `op`, `path` and, as the
    /// operation requires, `value` or `from` (§4). Other members are ignored (§4).
    ///
    /// - Parameter json: The patch document.
    /// - Throws: `JSONPatch.Error` of kind `.invalidPatch` naming the first malformed operation.
    public init(json: JSONValue) throws(Error) {
        guard case .array(let elements) = json else {
            throw Error(.invalidPatch, operationIndex: 0, operation: "", message: "a patch must be an array")
        }
        var operations: [Operation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try Operation(json: element, index: index))
        }
        self.init(operations)
    }

    /// The patch document (RFC 6902 §3), each operation written as `{"op", "from"?, "path", "value"?}`.
    public var json: JSONValue {
        .array(operations.map(\.json))
    }
}

extension JSONPatch.Operation {
    /// The operation as an RFC 6902 §4 object.
    public var json: JSONValue {
        var object = JSONObject()
        object.reserveCapacity(3)
        object["op"] = .string(name)
        switch self {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            object["path"] = .string(path.description)
            object["value"] = value
        case .remove(let path):
            object["path"] = .string(path.description)
        case .move(let from, let path), .copy(let from, let path):
            object["from"] = .string(from.description)
            object["path"] = .string(path.description)
        }
        return .object(object)
    }

    init(json: JSONValue, index: Int) throws(JSONPatch.Error) {
        func invalid(_ message: String, operation: String = "") -> JSONPatch.Error {
            JSONPatch.Error(.invalidPatch, operationIndex: index, operation: operation, message: message)
        }
        guard case .object(let object) = json else {
            throw invalid("an operation must be an object")
        }
        guard case .string(let name)? = object["op"] else {
            throw invalid("member 'op' must be a string")
        }
        func pointer(_ member: String) throws(JSONPatch.Error) -> JSONPointer {
            guard case .string(let text)? = object[member] else {
                throw invalid("member '\(member)' must be a string", operation: name)
            }
            do {
                return try JSONPointer(text)
            } catch {
                throw invalid("member '\(member)': \(error)", operation: name)
            }
        }
        func value() throws(JSONPatch.Error) -> JSONValue {
            // A present `null` is a value; only a missing member is an error.
            guard let value = object["value"] else { throw invalid("member 'value' is missing", operation: name) }
            return value
        }
        switch name {
        case "add": self = .add(path: try pointer("path"), value: try value())
        case "remove": self = .remove(path: try pointer("path"))
        case "replace": self = .replace(path: try pointer("path"), value: try value())
        case "move": self = .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": self = .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": self = .test(path: try pointer("path"), value: try value())
        default:
            throw invalid("unknown op '\(name)', expected add, remove, replace, move, copy or test", operation: name)
        }
    }
}
