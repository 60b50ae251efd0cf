import JSON

/// The JSON of a list in a room's state, rebuilt element by element: elements that were already there keep
/// their JSON.
///
/// Lists such as found words, guesses and chat lines change at their ends: a word is put in front, a guess is
/// added at the back, a chat line is added at the back while the oldest one drops off the front. Reusing the
/// JSON of the elements that stayed avoids rebuilding them, and lets `JSONPatch.diff` compare those elements by
/// identity rather than member by member.
struct JSONListMemo<Element: Equatable> {
    private var elements: [Element] = []
    private var items: [JSONValue] = []
    private var json: JSONValue?

    /// How far into the old list a new list may start (elements dropped off the front) and still share the rest.
    private static var maxDropped: Int { 16 }

    /// The JSON array for `list`, with `build` called only for the elements that are new since the last call.
    mutating func value(for list: [Element], _ build: (Element) -> JSONValue) -> JSONValue {
        if let json, list == elements { return json }
        var rebuilt: [JSONValue] = []
        rebuilt.reserveCapacity(list.count)
        if let dropped = droppedFromFront(list) {
            // The old list minus its first `dropped` elements, then new elements at the back.
            let kept = elements.count - dropped
            rebuilt.append(contentsOf: items[dropped...])
            for element in list[kept...] { rebuilt.append(build(element)) }
        } else {
            let shared = min(list.count, elements.count)
            var prefix = 0
            while prefix < shared, list[prefix] == elements[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < shared - prefix, list[list.count - 1 - suffix] == elements[elements.count - 1 - suffix] {
                suffix += 1
            }
            rebuilt.append(contentsOf: items[..<prefix])
            for element in list[prefix..<(list.count - suffix)] { rebuilt.append(build(element)) }
            rebuilt.append(contentsOf: items[(items.count - suffix)...])
        }
        elements = list
        items = rebuilt
        let json = JSONValue.array(rebuilt)
        self.json = json
        return json
    }

    /// How many elements the new list dropped from the front of the old one, when the rest of the old list starts
    /// the new one (a bounded history moving on); nil otherwise, or when nothing was dropped.
    private func droppedFromFront(_ list: [Element]) -> Int? {
        guard let first = list.first, let old = elements.first, first != old,
              let dropped = elements.prefix(Self.maxDropped + 1).firstIndex(of: first), dropped > 0 else { return nil }
        let kept = elements.count - dropped
        guard kept <= list.count, elements[dropped...].elementsEqual(list[..<kept]) else { return nil }
        return dropped
    }
}
