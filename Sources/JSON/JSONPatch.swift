/// A JSON Patch (RFC 6902): a list of operations applied in order to a JSON document.
///
/// `apply` is atomic (RFC 6902 §5: on error, processing stops and the patch as a whole fails): it works on a
/// copy-on-write copy and the original is unchanged when any operation fails. `diff(from:to:)` (in
/// `JSONPatch+Diff.swift`) produces small patches between two states.
public struct JSONPatch: Hashable, Sendable {
    /// The operations, applied in order.
    public var operations: [Operation]

    /// Creates a patch.
    ///
    /// - Parameter operations: The operations, applied in order.
    public init(_ operations: [Operation] = []) {
        self.operations = operations
    }

    /// True when the patch changes nothing.
    public var isEmpty: Bool { operations.isEmpty }

    /// One RFC 6902 §4 operation.
    public enum Operation: Hashable, Sendable {
        /// §4.1: insert into an array (index `-` appends), add or replace an object member, or replace the root.
        case add(path: JSONPointer, value: JSONValue)
        /// §4.2: remove an existing member or element.
        case remove(path: JSONPointer)
        /// §4.3: replace an existing value.
        case replace(path: JSONPointer, value: JSONValue)
        /// §4.4: remove the value at `from` and add it at `path`; `from` must not be a proper prefix of `path`.
        case move(from: JSONPointer, path: JSONPointer)
        /// §4.5: add a copy of the value at `from` at `path`.
        case copy(from: JSONPointer, path: JSONPointer)
        /// §4.6: fail unless the value at `path` equals `value`.
        case test(path: JSONPointer, value: JSONValue)

        /// The `op` member's value: `"add"`, `"remove"` and so on.
        public var name: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .replace: "replace"
            case .move: "move"
            case .copy: "copy"
            case .test: "test"
            }
        }

        /// The target location.
        public var path: JSONPointer {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
                 .copy(_, let path), .test(let path, _):
                path
            }
        }
    }

    // MARK: - Applying

    /// Applies the operations in order to a copy of `document`.
    ///
    /// - Parameter document: The document to patch.
    /// - Returns: The patched document.
    /// - Throws: `JSONPatch.Error` naming the failing operation; nothing is partially applied.
    public func apply(to document: JSONValue) throws(Error) -> JSONValue {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try result.perform(operation)
            } catch {
                throw Error(error.kind, operationIndex: index, operation: operation.name, message: error.message)
            }
        }
        return result
    }

    /// Applies the operations in order to `document`, which is left unchanged if any operation fails.
    ///
    /// - Parameter document: The document to patch in place.
    /// - Throws: `JSONPatch.Error` naming the failing operation.
    public func apply(to document: inout JSONValue) throws(Error) {
        document = try apply(to: document)
    }

    /// Applies the operations in order to `document` in place, without the copy that makes `apply(to:)` atomic:
    /// if an operation fails, the ones before it stay applied.
    ///
    /// For a client that throws its replica away when a patch fails (and asks for a snapshot): a uniquely
    /// referenced document is edited where it is, instead of every container on each path being copied.
    ///
    /// - Parameter document: The document to patch in place.
    /// - Throws: `JSONPatch.Error` naming the failing operation; `document` is then partly patched.
    public func applyInPlace(to document: inout JSONValue) throws(Error) {
        for (index, operation) in operations.enumerated() {
            do {
                try document.perform(operation)
            } catch {
                throw Error(error.kind, operationIndex: index, operation: operation.name, message: error.message)
            }
        }
    }
}

// MARK: - Errors

extension JSONPatch {
    /// A patch that could not be decoded or applied.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The kinds of failure.
        public enum Kind: Hashable, Sendable {
            /// The patch document does not have the RFC 6902 §3-§4 shape.
            case invalidPatch
            /// A location that must exist does not (RFC 6902 §4.2-§4.5, RFC 6901 §7).
            case pathNotFound
            /// An array index token is not `0`, `[1-9][0-9]*` or (where allowed) `-`, or is out of range.
            case invalidArrayIndex
            /// A token tried to step into a string, number, Boolean or null.
            case notAContainer
            /// RFC 6902 §4.4: `from` is a proper prefix of `path`.
            case moveIntoDescendant
            /// RFC 6902 §4.2: the whole document cannot be removed.
            case cannotRemoveRoot
            /// RFC 6902 §4.6: the values differ.
            case testFailed
        }

        /// What went wrong.
        public var kind: Kind
        /// The position of the failing operation in the patch.
        public var operationIndex: Int
        /// The failing operation's `op`, or `""` if it had none.
        public var operation: String
        /// Details, such as "path '/a/b' does not exist".
        public var message: String

        /// Creates an error.
        public init(_ kind: Kind, operationIndex: Int, operation: String, message: String) {
            self.kind = kind
            self.operationIndex = operationIndex
            self.operation = operation
            self.message = message
        }

        /// A message such as "operation 2 (remove): path '/a/b' does not exist".
        public var description: String {
            operation.isEmpty
                ? "operation \(operationIndex): \(message)"
                : "operation \(operationIndex) (\(operation)): \(message)"
        }
    }

    /// A failure inside one operation, before it is tagged with the operation's position.
    struct Failure: Swift.Error {
        var kind: Error.Kind
        var message: String

        init(_ kind: Error.Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }

        static func notFound(_ pointer: JSONPointer, depth: Int) -> Failure {
            let prefix = JSONPointer(tokens: Array(pointer.tokens.prefix(depth + 1)))
            return prefix == pointer
                ? Failure(.pathNotFound, "path '\(pointer)' does not exist")
                : Failure(.pathNotFound, "path '\(pointer)' does not exist: '\(prefix)' is missing")
        }
    }
}

// MARK: - Document editing

extension JSONValue {
    /// Performs one operation in place. May leave `self` partly changed when it throws; `JSONPatch.apply`
    /// works on a copy for that reason.
    mutating func perform(_ operation: JSONPatch.Operation) throws(JSONPatch.Failure) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path)
        case .remove(let path):
            _ = try remove(at: path)
        case .replace(let path, let value):
            try replace(at: path, with: value)
        case .move(let from, let path):
            if from == path {
                _ = try value(at: from)
                return
            }
            if from.isProperPrefix(of: path) {
                throw JSONPatch.Failure(.moveIntoDescendant, "cannot move '\(from)' into its own descendant '\(path)'")
            }
            let moved = try remove(at: from)
            try add(moved, at: path)
        case .copy(let from, let path):
            try add(try value(at: from), at: path)
        case .test(let path, let expected):
            let actual = try value(at: path)
            guard actual == expected else {
                throw JSONPatch.Failure(.testFailed,
                                        "value at '\(path)' is \(actual.abbreviated), expected \(expected.abbreviated)")
            }
        }
    }

    /// The value's JSON text, cut short so that an error message stays readable.
    private var abbreviated: String {
        let maxLength = 80
        let text = description
        return text.utf8.count <= maxLength ? text : String(text.prefix(maxLength)) + "…"
    }

    /// RFC 6902 §4.1.
    private mutating func add(_ value: JSONValue, at path: JSONPointer) throws(JSONPatch.Failure) {
        guard let last = path.tokens.last else {
            self = value
            return
        }
        try modifyParent(of: path) { (parent: inout JSONValue) throws(JSONPatch.Failure) in
            if var object = parent.takeObject() {
                object[last] = value
                parent = .object(object)
            } else if var elements = parent.takeArray() {
                defer { parent = .array(elements) }
                let index: Int
                if last == "-" {
                    index = elements.count
                } else if let parsed = JSONPointer.arrayIndex(last), parsed <= elements.count {
                    index = parsed
                } else {
                    throw JSONPatch.Failure(.invalidArrayIndex,
                                            "index '\(last)' in '\(path)' is not in 0...\(elements.count) or '-'")
                }
                elements.insert(value, at: index)
            } else {
                throw JSONPatch.Failure(.notAContainer, "cannot add '\(path)': its parent is not an object or array")
            }
        }
    }

    /// RFC 6902 §4.2. Returns the removed value.
    private mutating func remove(at path: JSONPointer) throws(JSONPatch.Failure) -> JSONValue {
        guard let last = path.tokens.last else {
            throw JSONPatch.Failure(.cannotRemoveRoot, "cannot remove the whole document")
        }
        return try modifyParent(of: path) { (parent: inout JSONValue) throws(JSONPatch.Failure) -> JSONValue in
            if var object = parent.takeObject() {
                defer { parent = .object(object) }
                guard let position = object.index(forKey: last) else {
                    throw JSONPatch.Failure.notFound(path, depth: path.tokens.count - 1)
                }
                return object.remove(at: position).value
            } else if var elements = parent.takeArray() {
                defer { parent = .array(elements) }
                let index = try Self.existingIndex(last, in: elements, path: path)
                return elements.remove(at: index)
            } else {
                throw JSONPatch.Failure(.notAContainer, "cannot remove '\(path)': its parent is not an object or array")
            }
        }
    }

    /// RFC 6902 §4.3.
    private mutating func replace(at path: JSONPointer, with value: JSONValue) throws(JSONPatch.Failure) {
        try modify(at: path, depth: 0, end: path.tokens.count) { (target: inout JSONValue) in target = value }
    }

    /// The value at `path`, which must exist (RFC 6902 §4.4-§4.6).
    private func value(at path: JSONPointer) throws(JSONPatch.Failure) -> JSONValue {
        var current = self
        for (depth, token) in path.tokens.enumerated() {
            current = try current.child(token, depth: depth, of: path)
        }
        return current
    }

    private func child(_ token: String, depth: Int, of path: JSONPointer) throws(JSONPatch.Failure) -> JSONValue {
        switch self {
        case .object(let object):
            guard let member = object[token] else { throw JSONPatch.Failure.notFound(path, depth: depth) }
            return member
        case .array(let elements):
            return elements[try Self.existingIndex(token, in: elements, path: path)]
        default:
            throw JSONPatch.Failure(.notAContainer, "path '\(path)' steps into a value that is not an object or array")
        }
    }

    private static func existingIndex(_ token: String, in elements: [JSONValue],
                                      path: JSONPointer) throws(JSONPatch.Failure) -> Int {
        guard let index = JSONPointer.arrayIndex(token), index < elements.count else {
            let message = "index '\(token)' in '\(path)' is not an existing element (count \(elements.count))"
            throw JSONPatch.Failure(.invalidArrayIndex, message)
        }
        return index
    }

    private mutating func modifyParent<R>(
        of path: JSONPointer, _ body: (inout JSONValue) throws(JSONPatch.Failure) -> R
    ) throws(JSONPatch.Failure) -> R {
        try modify(at: path, depth: 0, end: path.tokens.count - 1, body)
    }

    /// Walks to the value at `pointer` and runs `body` on it in place. Each container on the way is taken out
    /// of its enum case before it is changed, so a uniquely referenced document is edited without copying.
    ///
    /// `end` is the number of tokens to follow (fewer than the pointer has to reach a parent); errors name the
    /// whole pointer.
    private mutating func modify<R>(
        at pointer: JSONPointer, depth: Int, end: Int,
        _ body: (inout JSONValue) throws(JSONPatch.Failure) -> R
    ) throws(JSONPatch.Failure) -> R {
        guard depth < end else { return try body(&self) }
        let path = pointer
        let token = pointer.tokens[depth]
        if var object = takeObject() {
            defer { self = .object(object) }
            guard let position = object.index(forKey: token) else {
                throw JSONPatch.Failure.notFound(path, depth: depth)
            }
            return try object.modifyValue(at: position) { (member: inout JSONValue) throws(JSONPatch.Failure) -> R in
                try member.modify(at: pointer, depth: depth + 1, end: end, body)
            }
        } else if var elements = takeArray() {
            defer { self = .array(elements) }
            let index = try Self.existingIndex(token, in: elements, path: path)
            return try elements[index].modify(at: pointer, depth: depth + 1, end: end, body)
        } else {
            throw JSONPatch.Failure(.notAContainer, "path '\(path)' steps into a value that is not an object or array")
        }
    }

    /// Moves the object out of `self`, leaving `null` until the caller puts it back, so that it is uniquely
    /// referenced while it is changed (a `switch` over `self` would keep a second reference and force a copy).
    private mutating func takeObject() -> JSONObject? {
        guard case .object(let object) = self else { return nil }
        self = .null
        return object
    }

    /// Moves the array out of `self`, leaving `null` until the caller puts it back (see `takeObject`).
    private mutating func takeArray() -> [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        self = .null
        return elements
    }
}
