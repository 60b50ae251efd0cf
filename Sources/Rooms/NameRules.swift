// Unicode normalization (NFC for the name shown, NFKC for comparing names) comes from Foundation; on Linux that is
// swift-corelibs-foundation, whose `precomposedString...` properties behave as on Apple platforms (checked with
// the 6.3 toolchain). The standard library offers no public normalization.
import Foundation

/// Player names and chat lines: what people type, made safe to show.
///
/// Any printable grapheme cluster is welcome, emoji sequences included (`Hal 👩‍💻` holds a zero-width joiner,
/// `🏳️‍🌈 Ro` a variation selector as well), and so are the combining marks that Arabic, Hindi, Thai or Vietnamese
/// write with. Refused are only the code points that can hurt the page or fool the people reading it: controls,
/// bidirectional overrides and isolates (which reorder the text around a name), tag characters (invisible ASCII
/// that only a machine reads; the subdivision flags of England, Scotland and Wales are refused with them),
/// unassigned and private-use code points (which render differently, or not at all, on each device), towers of
/// combining marks on one character ("Zalgo" text that draws over the lines around it), and names that show
/// nothing.
///
/// Two names are the same name when they are equal after compatibility normalization (NFKC), with invisible
/// characters removed and case ignored: `Ana` followed by a zero-width space, or `Ａｎａ` in full-width letters,
/// is not a second `Ana` (see `comparisonKey`).
public enum NameRules {
    /// In grapheme clusters (what people count as characters), not code points or bytes.
    static let maxCharacters = 20
    /// Combining marks one base character may carry. Vietnamese stacks two (`ệ` decomposed), Arabic with full
    /// vowel marks two or three, Tibetan consonant stacks up to four; a few hundred marks on one letter, which
    /// counts as one character, is drawing, not writing.
    static let maxMarksPerCharacter = 4

    /// Why a name or chat line was refused; `RoomError.Reason.badName` and `.badChat` give each its message.
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
        /// A tag character (U+E0000-E007F).
        case tag
        /// More than `maxMarksPerCharacter` combining marks on one character.
        case tooManyMarks
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
    ///
    /// - Returns: the name in Unicode normalization form C (canonical composition), which looks the same as what
    ///   was typed.
    static func check(_ raw: String) throws(Refusal) -> String {
        // Controls are refused before splitting on whitespace: a tab or line break is a control, not a space.
        try checkCodePoints(raw, allowingNewCodePoints: false)
        let name = raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            .precomposedStringWithCanonicalMapping
        guard !name.isEmpty else { throw .empty }
        guard name.count <= maxCharacters else { throw .tooLong }
        guard name.unicodeScalars.contains(where: { !isInvisible($0) }) else { throw .invisible }
        return name
    }

    /// A chat line with whitespace collapsed, checked like a name but for length (the room's own limit) and for
    /// unassigned and private-use code points: a phone with newer emoji than this server's Unicode tables may
    /// still chat with them.
    ///
    /// - Returns: the line, or nil when nothing is left of it once whitespace is trimmed.
    /// - Throws: the reason the line is refused.
    static func checkChat(_ raw: String) throws(Refusal) -> String? {
        // Printable ASCII, most chat, needs no Unicode property look-ups.
        if !raw.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            try checkCodePoints(raw, allowingNewCodePoints: true)
        }
        let text = Room.collapsingWhitespace(raw)
        guard !text.isEmpty else { return nil }
        guard text.unicodeScalars.contains(where: { !isInvisible($0) }) else { throw .invisible }
        return text
    }

    /// Refuses the first code point that may not appear, and towers of combining marks.
    private static func checkCodePoints(_ text: String, allowingNewCodePoints: Bool) throws(Refusal) {
        var marks = 0
        for scalar in text.unicodeScalars {
            if let refusal = refusal(for: scalar),
               !(allowingNewCodePoints && (refusal == .unassigned || refusal == .privateUse)) {
                throw refusal
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                marks += 1
                guard marks <= maxMarksPerCharacter else { throw .tooManyMarks }
            default:
                // Joiners and other invisible characters between marks do not start a new character.
                if !isIgnoredInComparison(scalar) { marks = 0 }
            }
        }
    }

    private static func refusal(for scalar: Unicode.Scalar) -> Refusal? {
        let value = scalar.value
        // Bidirectional embeddings, overrides (U+202A-202E) and isolates (U+2066-2069); the marks U+200E/200F
        // and U+061C only nudge neutral characters and are left alone.
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) { return .bidirectional }
        // Tags spell ASCII that no one sees (U+E0001 LANGUAGE TAG, U+E0020-E007F); U+E0000 is unassigned.
        if (0xE0001...0xE007F).contains(value) { return .tag }
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
        return isBlank(scalar)
    }

    /// Hangul fillers and the Braille blank render as empty space.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800].contains(scalar.value)
    }

    /// Code points left out when names are compared: those that show nothing and change no letter's shape on
    /// their own (zero-width spaces and joiners, variation selectors, soft hyphens, fillers).
    private static func isIgnoredInComparison(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
            || isBlank(scalar)
    }

    /// What two names must share to be the same name: compatibility-normalized (NFKC: full-width, ligature and
    /// styled letters become plain ones), lowercased, without the code points `isIgnoredInComparison` skips.
    static func comparisonKey(_ name: String) -> String {
        var key = String.UnicodeScalarView()
        for scalar in name.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars
        where !isIgnoredInComparison(scalar) {
            key.append(scalar)
        }
        return String(key)
    }

    /// `name`, or `name (2)`, `name (3)`... so that no two people in a room share a name (as `comparisonKey`
    /// compares them).
    static func distinct(_ name: String, among taken: some Sequence<String>) -> String {
        let used = Set(taken.map(comparisonKey))
        guard used.contains(comparisonKey(name)) else { return name }
        var number = 2
        while true {
            let suffix = " (\(number))"
            let candidate = String(name.prefix(maxCharacters - suffix.count)) + suffix
            if !used.contains(comparisonKey(candidate)) { return candidate }
            number += 1
        }
    }
}
