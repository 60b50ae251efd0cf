import JSON

/// The JSON of a list in a room's state, rebuilt element by element: elements that were already there keep
/// their JSON.
///
/// Lists such as found words, guesses and chat lines mostly grow at one end. Reusing the JSON of the elements
/// they share with the previous build (a common prefix and suffix) avoids rebuilding them, and lets
/// `JSONPatch.diff` compare those elements by identity rather than member by member.
struct JSONListMemo<Element: Equatable> {
    private var elements: [Element] = []
    private var items: [JSONValue] = []
    private var json: JSONValue?

    /// The JSON array for `list`, with `build` called only for the elements that are new since the last call.
    mutating func value(for list: [Element], _ build: (Element) -> JSONValue) -> JSONValue {
        if let json, list == elements { return json }
        let shared = min(list.count, elements.count)
        var prefix = 0
        while prefix < shared, list[prefix] == elements[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shared - prefix, list[list.count - 1 - suffix] == elements[elements.count - 1 - suffix] {
            suffix += 1
        }
        var rebuilt: [JSONValue] = []
        rebuilt.reserveCapacity(list.count)
        rebuilt.append(contentsOf: items[..<prefix])
        for element in list[prefix..<(list.count - suffix)] {
            rebuilt.append(build(element))
        }
        rebuilt.append(contentsOf: items[(items.count - suffix)...])
        elements = list
        items = rebuilt
        let json = JSONValue.array(rebuilt)
        self.json = json
        return json
    }
}
