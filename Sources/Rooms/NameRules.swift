/// Player names: what people type, made safe to show.
enum NameRules {
    static let maxCharacters = 20

    /// Trims spaces, collapses inner runs of whitespace, refuses control characters and lengths outside 1-20.
    static func clean(_ raw: String) throws(RoomError) -> String {
        var words: [Substring] = []
        for word in raw.split(whereSeparator: { $0.isWhitespace }) {
            words.append(word)
        }
        let name = words.joined(separator: " ")
        guard !name.isEmpty else {
            throw RoomError(code: "bad-name", title: "Name needed", message: "Type a name of 1 to 20 characters.")
        }
        guard name.count <= maxCharacters else {
            throw RoomError(code: "bad-name", title: "Name too long",
                            message: "Names can be at most \(maxCharacters) characters.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control
            || $0.properties.generalCategory == .format || $0.properties.generalCategory == .lineSeparator
            || $0.properties.generalCategory == .paragraphSeparator }) else {
            throw RoomError(code: "bad-name", title: "Name not allowed",
                            message: "Names cannot contain control characters.")
        }
        return name
    }

    /// `name`, or `name (2)`, `name (3)`... so that no two people in a room share a name.
    static func distinct(_ name: String, among taken: some Sequence<String>) -> String {
        let used = Set(taken.map { $0.lowercased() })
        guard used.contains(name.lowercased()) else { return name }
        var number = 2
        while true {
            let suffix = " (\(number))"
            let candidate = String(name.prefix(maxCharacters - suffix.count)) + suffix
            if !used.contains(candidate.lowercased()) { return candidate }
            number += 1
        }
    }
}
