/// Player names: what people type, made safe to show.
///
/// Any printable grapheme cluster is welcome, emoji sequences included (`Hal 👩‍💻` holds a zero-width joiner,
/// `🏳️‍🌈 Ro` a variation selector as well). Refused are only the code points that can hurt the page or fool the
/// people reading it: controls, bidirectional overrides and isolates (which reorder the text around a name),
/// unassigned and private-use code points (which render differently, or not at all, on each device), and names
/// that show nothing.
public enum NameRules {
    /// In grapheme clusters (what people count as characters), not code points or bytes.
    static let maxCharacters = 20

    /// Why a name was refused; `RoomError.Reason.badName` gives each its title and message.
    public enum Refusal: Error, Hashable, Sendable {
        /// Nothing left once whitespace is trimmed.
        case empty
        /// More than `maxCharacters` grapheme clusters.
        case tooLong
        /// A control character, line or paragraph separator.
        case control
        /// A bidirectional embedding, override or isolate.
        case bidirectional
        /// A code point Unicode has not assigned (or a surrogate).
        case unassigned
        /// A private-use code point.
        case privateUse
        /// Only whitespace and characters that show nothing.
        case invisible
    }

    /// Trims whitespace, collapses inner runs of it to one space, and checks what is left.
    ///
    /// - Throws: `RoomError` with code `bad-name` and a message naming the reason.
    static func clean(_ raw: String) throws(RoomError) -> String {
        do {
            return try check(raw)
        } catch {
            throw RoomError(.badName(error))
        }
    }

    /// `clean`, with the reason as a `Refusal`.
    static func check(_ raw: String) throws(Refusal) -> String {
        // Controls are refused before splitting on whitespace: a tab or line break is a control, not a space.
        for scalar in raw.unicodeScalars {
            if let refusal = refusal(for: scalar) { throw refusal }
        }
        let name = raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !name.isEmpty else { throw .empty }
        guard name.count <= maxCharacters else { throw .tooLong }
        guard name.unicodeScalars.contains(where: { !isInvisible($0) }) else { throw .invisible }
        return name
    }

    private static func refusal(for scalar: Unicode.Scalar) -> Refusal? {
        let value = scalar.value
        // Bidirectional embeddings, overrides (U+202A-202E) and isolates (U+2066-2069); the marks U+200E/200F
        // and U+061C only nudge neutral characters and are left alone.
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) { return .bidirectional }
        switch scalar.properties.generalCategory {
        case .control: return .control // C0, DEL and C1
        case .lineSeparator, .paragraphSeparator: return .control
        case .unassigned: return .unassigned
        case .privateUse: return .privateUse
        case .surrogate: return .unassigned
        default: return nil
        }
    }

    /// Code points that show nothing by themselves: whitespace, format characters (joiners, variation selectors
    /// and tags that only change the characters around them), and the blanks that fonts draw empty.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
        switch properties.generalCategory {
        case .format, .nonspacingMark, .enclosingMark, .spaceSeparator: return true
        default: break
        }
        // Hangul fillers and the Braille blank render as empty space.
        return [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800].contains(scalar.value)
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
