import JSON
import Testing

@Suite struct JSONPatchTests {
    /// One example of RFC 6902 Appendix A, as JSON text: the document, the patch, and the result (`nil` when
    /// the patch must fail).
    struct Example: Sendable, CustomTestStringConvertible {
        var section: String
        var document: String
        var patch: String
        var result: String?

        var testDescription: String { "RFC 6902 \(section)" }
    }

    static let appendixA: [Example] = [
        Example(section: "A.1 Adding an Object Member",
                document: #"{ "foo": "bar"}"#,
                patch: #"[ { "op": "add", "path": "/baz", "value": "qux" } ]"#,
                result: #"{ "baz": "qux", "foo": "bar" }"#),
        Example(section: "A.2 Adding an Array Element",
                document: #"{ "foo": [ "bar", "baz" ] }"#,
                patch: #"[ { "op": "add", "path": "/foo/1", "value": "qux" } ]"#,
                result: #"{ "foo": [ "bar", "qux", "baz" ] }"#),
        Example(section: "A.3 Removing an Object Member",
                document: #"{ "baz": "qux", "foo": "bar" }"#,
                patch: #"[ { "op": "remove", "path": "/baz" } ]"#,
                result: #"{ "foo": "bar" }"#),
        Example(section: "A.4 Removing an Array Element",
                document: #"{ "foo": [ "bar", "qux", "baz" ] }"#,
                patch: #"[ { "op": "remove", "path": "/foo/1" } ]"#,
                result: #"{ "foo": [ "bar", "baz" ] }"#),
        Example(section: "A.5 Replacing a Value",
                document: #"{ "baz": "qux", "foo": "bar" }"#,
                patch: #"[ { "op": "replace", "path": "/baz", "value": "boo" } ]"#,
                result: #"{ "baz": "boo", "foo": "bar" }"#),
        Example(section: "A.6 Moving a Value",
                document: #"{ "foo": { "bar": "baz", "waldo": "fred" }, "qux": { "corge": "grault" } }"#,
                patch: #"[ { "op": "move", "from": "/foo/waldo", "path": "/qux/thud" } ]"#,
                result: #"{ "foo": { "bar": "baz" }, "qux": { "corge": "grault", "thud": "fred" } }"#),
        Example(section: "A.7 Moving an Array Element",
                document: #"{ "foo": [ "all", "grass", "cows", "eat" ] }"#,
                patch: #"[ { "op": "move", "from": "/foo/1", "path": "/foo/3" } ]"#,
                result: #"{ "foo": [ "all", "cows", "eat", "grass" ] }"#),
        Example(section: "A.8 Testing a Value: Success",
                document: #"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#,
                patch: #"[ { "op": "test", "path": "/baz", "value": "qux" },"#
                    + #" { "op": "test", "path": "/foo/1", "value": 2 } ]"#,
                result: #"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#),
        Example(section: "A.9 Testing a Value: Error",
                document: #"{ "baz": "qux" }"#,
                patch: #"[ { "op": "test", "path": "/baz", "value": "bar" } ]"#,
                result: nil),
        Example(section: "A.10 Adding a Nested Member Object",
                document: #"{ "foo": "bar" }"#,
                patch: #"[ { "op": "add", "path": "/child", "value": { "grandchild": { } } } ]"#,
                result: #"{ "foo": "bar", "child": { "grandchild": { } } }"#),
        Example(section: "A.11 Ignoring Unrecognized Elements",
                document: #"{ "foo": "bar" }"#,
                patch: #"[ { "op": "add", "path": "/baz", "value": "qux", "xyz": 123 } ]"#,
                result: #"{ "foo": "bar", "baz": "qux" }"#),
        Example(section: "A.12 Adding to a Nonexistent Target",
                document: #"{ "foo": "bar" }"#,
                patch: #"[ { "op": "add", "path": "/baz/bat", "value": "qux" } ]"#,
                result: nil),
        Example(section: "A.14 ~ Escape Ordering",
                document: #"{ "/": 9, "~1": 10 }"#,
                patch: #"[ {"op": "test", "path": "/~01", "value": 10} ]"#,
                result: #"{ "/": 9, "~1": 10 }"#),
        Example(section: "A.15 Comparing Strings and Numbers",
                document: #"{ "/": 9, "~1": 10 }"#,
                patch: #"[ {"op": "test", "path": "/~01", "value": "10"} ]"#,
                result: nil),
        Example(section: "A.16 Adding an Array Value",
                document: #"{ "foo": ["bar"] }"#,
                patch: #"[ { "op": "add", "path": "/foo/-", "value": ["abc", "def"] } ]"#,
                result: #"{ "foo": ["bar", ["abc", "def"]] }"#),
    ]

    @Test(arguments: appendixA)
    func appliesRFC6902Example(_ example: Example) throws {
        let document = try JSONParser().parse(example.document)
        let patch = try JSONPatch(json: try JSONParser().parse(example.patch))
        if let result = example.result {
            #expect(try patch.apply(to: document) == (try JSONParser().parse(result)))
        } else {
            #expect(throws: JSONPatch.Error.self) { try patch.apply(to: document) }
        }
    }

    @Test(arguments: appendixA)
    func appliesRFC6902ExampleInPlace(_ example: Example) throws {
        var document = try JSONParser().parse(example.document)
        let patch = try JSONPatch(json: try JSONParser().parse(example.patch))
        if let result = example.result {
            try patch.applyInPlace(to: &document)
            #expect(document == (try JSONParser().parse(result)))
        } else {
            #expect(throws: JSONPatch.Error.self) { try patch.applyInPlace(to: &document) }
        }
    }

    @Test func inPlaceKeepsTheOperationsBeforeAFailureAndLeavesCopiesAlone() throws {
        let original: JSONValue = ["words": ["cat", "dog"], "round": 1]
        var document = original
        let patch = JSONPatch([
            .replace(path: try JSONPointer("/round"), value: 2),
            .remove(path: try JSONPointer("/players")),
        ])
        #expect(throws: JSONPatch.Error(.pathNotFound, operationIndex: 1, operation: "remove",
                                        message: "path '/players' does not exist")) {
            try patch.applyInPlace(to: &document)
        }
        #expect(document["round"] == 2, "not atomic: the first operation stays applied")
        #expect(original["round"] == 1, "a copy sharing storage is not changed")
    }

    @Test func rejectsRFC6902A13DuplicateOpMember() {
        // A.13 Invalid JSON Patch Document: "op" appears twice, which the parser refuses outright.
        let patch = #"[ { "op": "add", "path": "/baz", "value": "qux", "op": "remove" } ]"#
        #expect(throws: JSONParser.Error(.duplicateKey("op"), offset: 49)) { try JSONParser().parse(patch) }
    }

    @Test func reportsTheFailingTestOperation() {
        let patch = JSONPatch([.test(path: JSONPointer(tokens: ["baz"]), value: "bar")])
        #expect(throws: JSONPatch.Error(.testFailed, operationIndex: 0, operation: "test",
                                        message: #"value at '/baz' is "qux", expected "bar""#)) {
            try patch.apply(to: ["baz": "qux"])
        }
    }

    // MARK: - Atomicity

    @Test func leavesTheDocumentUnchangedWhenAnOperationFails() throws {
        let original: JSONValue = ["words": ["cat", "dog"], "round": 1, "players": ["p1": ["score": 3]]]
        var document = original
        let patch = JSONPatch([
            .replace(path: try JSONPointer("/round"), value: 2),
            .add(path: try JSONPointer("/words/0"), value: "owl"),
            .replace(path: try JSONPointer("/players/p1/score"), value: 4),
            .remove(path: try JSONPointer("/players/p2")),
        ])
        #expect(throws: JSONPatch.Error(.pathNotFound, operationIndex: 3, operation: "remove",
                                        message: "path '/players/p2' does not exist")) {
            try patch.apply(to: &document)
        }
        #expect(document == original)
        #expect(document["round"] == 1)
        #expect(document["words"] == ["cat", "dog"])
        #expect(document["players"]?["p1"]?["score"] == 3)
    }

    @Test func appliesInPlaceWhenEveryOperationSucceeds() throws {
        var document: JSONValue = ["words": ["cat"]]
        try JSONPatch([.add(path: try JSONPointer("/words/0"), value: "owl")]).apply(to: &document)
        #expect(document == ["words": ["owl", "cat"]])
    }

    // MARK: - Failures

    static let failures: [(String, JSONPatch.Error.Kind, String)] = [
        (#"[{"op":"remove","path":""}]"#, .cannotRemoveRoot, "operation 0 (remove): cannot remove the whole document"),
        (#"[{"op":"replace","path":"/nope","value":1}]"#, .pathNotFound,
         "operation 0 (replace): path '/nope' does not exist"),
        (#"[{"op":"add","path":"/a/b/c","value":1}]"#, .pathNotFound,
         "operation 0 (add): path '/a/b/c' does not exist: '/a/b' is missing"),
        (#"[{"op":"add","path":"/list/3","value":1}]"#, .invalidArrayIndex,
         "operation 0 (add): index '3' in '/list/3' is not in 0...2 or '-'"),
        (#"[{"op":"add","path":"/list/01","value":1}]"#, .invalidArrayIndex,
         "operation 0 (add): index '01' in '/list/01' is not in 0...2 or '-'"),
        (#"[{"op":"remove","path":"/list/-"}]"#, .invalidArrayIndex,
         "operation 0 (remove): index '-' in '/list/-' is not an existing element (count 2)"),
        (#"[{"op":"replace","path":"/list/2","value":0}]"#, .invalidArrayIndex,
         "operation 0 (replace): index '2' in '/list/2' is not an existing element (count 2)"),
        (#"[{"op":"add","path":"/name/x","value":1}]"#, .notAContainer,
         "operation 0 (add): cannot add '/name/x': its parent is not an object or array"),
        (#"[{"op":"test","path":"/name/x/y","value":1}]"#, .notAContainer,
         "operation 0 (test): path '/name/x/y' steps into a value that is not an object or array"),
        (#"[{"op":"move","from":"/a","path":"/a/b"}]"#, .moveIntoDescendant,
         "operation 0 (move): cannot move '/a' into its own descendant '/a/b'"),
        (#"[{"op":"copy","from":"/missing","path":"/b"}]"#, .pathNotFound,
         "operation 0 (copy): path '/missing' does not exist"),
        (#"[{"op":"test","path":"/list","value":[2,1]}]"#, .testFailed,
         #"operation 0 (test): value at '/list' is [1,2], expected [2,1]"#),
    ]

    @Test(arguments: failures)
    func failsWithAClearError(_ patchText: String, _ kind: JSONPatch.Error.Kind, _ message: String) throws {
        let document: JSONValue = ["a": ["x": 1], "list": [1, 2], "name": "owl"]
        let patch = try JSONPatch(json: try JSONParser().parse(patchText))
        do {
            _ = try patch.apply(to: document)
            Issue.record("\(patchText) applied")
        } catch {
            #expect(error.kind == kind)
            #expect(error.description == message)
        }
    }

    // MARK: - Operations

    @Test func movesAndCopies() throws {
        let document: JSONValue = ["a": ["x": 1], "list": [1, 2, 3]]
        let moved = try JSONPatch([.move(from: try JSONPointer("/a/x"), path: try JSONPointer("/y"))])
            .apply(to: document)
        #expect(moved == ["a": [:], "list": [1, 2, 3], "y": 1])
        let copied = try JSONPatch([.copy(from: try JSONPointer("/list"), path: try JSONPointer("/a/list"))])
            .apply(to: document)
        #expect(copied == ["a": ["x": 1, "list": [1, 2, 3]], "list": [1, 2, 3]])
        let toEnd = try JSONPatch([.move(from: try JSONPointer("/list/0"), path: try JSONPointer("/list/-"))])
            .apply(to: document)
        #expect(toEnd["list"] == [2, 3, 1])
        // Moving a value onto itself changes nothing but still requires it to exist.
        let same = try JSONPatch([.move(from: try JSONPointer("/a"), path: try JSONPointer("/a"))]).apply(to: document)
        #expect(same == document)
        #expect(throws: JSONPatch.Error.self) {
            try JSONPatch([.move(from: try JSONPointer("/b"), path: try JSONPointer("/b"))]).apply(to: document)
        }
    }

    @Test func replacesAndAddsAtTheRoot() throws {
        #expect(try JSONPatch([.replace(path: .root, value: [1])]).apply(to: ["a": 1]) == [1])
        #expect(try JSONPatch([.add(path: .root, value: "x")]).apply(to: nil) == "x")
    }

    @Test func testsNumbersByValueAndObjectsWithoutOrder() throws {
        let document: JSONValue = ["n": 1, "o": ["a": 1, "b": 2]]
        let patch = JSONPatch([
            .test(path: try JSONPointer("/n"), value: 1.0),
            .test(path: try JSONPointer("/o"), value: ["b": 2, "a": 1]),
        ])
        #expect(try patch.apply(to: document) == document)
    }

    @Test func addsExistingObjectMemberByReplacingInPlace() throws {
        // RFC 6902 §4.1: adding an existing member replaces its value.
        let result = try JSONPatch([.add(path: try JSONPointer("/a"), value: 9)]).apply(to: ["a": 1, "b": 2])
        #expect(Array(result.objectValue!.keys) == ["a", "b"])
        #expect(result == ["a": 9, "b": 2])
    }

    // MARK: - Patch documents

    @Test func encodesOperationsAsRFC6902Objects() throws {
        let patch = JSONPatch([
            .add(path: try JSONPointer("/words/0"), value: "owl"),
            .remove(path: try JSONPointer("/a~1b")),
            .replace(path: try JSONPointer("/n"), value: nil),
            .move(from: try JSONPointer("/x"), path: try JSONPointer("/y")),
            .copy(from: try JSONPointer("/y"), path: try JSONPointer("/z")),
            .test(path: try JSONPointer("/m~0n"), value: [1]),
        ])
        let text = String(decoding: JSONWriter().serialize(patch.json), as: UTF8.self)
        #expect(text == #"[{"op":"add","path":"/words/0","value":"owl"},{"op":"remove","path":"/a~1b"},"#
            + #"{"op":"replace","path":"/n","value":null},{"op":"move","from":"/x","path":"/y"},"#
            + #"{"op":"copy","from":"/y","path":"/z"},{"op":"test","path":"/m~0n","value":[1]}]"#)
        #expect(try JSONPatch(json: try JSONParser().parse(text)) == patch)
    }

    static let malformedPatches: [(String, String)] = [
        (#"{"op":"add"}"#, "operation 0: a patch must be an array"),
        (#"[1]"#, "operation 0: an operation must be an object"),
        (#"[{"path":"/a"}]"#, "operation 0: member 'op' must be a string"),
        (#"[{"op":"remove","path":"/a"},{"op":"jump","path":"/a"}]"#,
         "operation 1 (jump): unknown op 'jump', expected add, remove, replace, move, copy or test"),
        (#"[{"op":"add","value":1}]"#, "operation 0 (add): member 'path' must be a string"),
        (#"[{"op":"add","path":5,"value":1}]"#, "operation 0 (add): member 'path' must be a string"),
        (#"[{"op":"add","path":"/a"}]"#, "operation 0 (add): member 'value' is missing"),
        (#"[{"op":"move","path":"/a"}]"#, "operation 0 (move): member 'from' must be a string"),
        (#"[{"op":"add","path":"a","value":1}]"#,
         #"operation 0 (add): member 'path': invalid JSON Pointer "a": expected '/' at byte 0"#),
    ]

    @Test(arguments: malformedPatches)
    func rejectsMalformedPatchDocument(_ text: String, _ message: String) throws {
        let json = try JSONParser().parse(text)
        do {
            _ = try JSONPatch(json: json)
            Issue.record("\(text) decoded")
        } catch {
            #expect(error.kind == .invalidPatch)
            #expect(error.description == message)
        }
    }

    @Test func acceptsAnExplicitNullValue() throws {
        let patch = try JSONPatch(json: try JSONParser().parse(#"[{"op":"add","path":"/a","value":null}]"#))
        #expect(patch.operations == [.add(path: JSONPointer(tokens: ["a"]), value: nil)])
    }
}
