/// One step of a coding path as the codec keeps it: the key given by the caller, an array index, or nothing (a
/// value encoded through a single-value container sits at its parent's path).
///
/// Paths are kept as these steps on a chain of encoders or decoders and turned into `[CodingKey]` only when asked
/// (`codingPath`, errors), so that encoding or decoding a nested value builds no array.
enum CodingPathStep {
    case none
    case key(any CodingKey)
    case index(Int)

    /// The step as a `CodingKey`, or nil for `.none`.
    var codingKey: (any CodingKey)? {
        switch self {
        case .none: nil
        case .key(let key): key
        case .index(let index): CodingPathKey(index: index)
        }
    }
}

/// A coding key the codec makes itself: array positions in coding paths and `super` keys, as Swift's own
/// encoders report them (`intValue` set and `stringValue` "Index n" for a position).
struct CodingPathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key of the element at `index` of an unkeyed container.
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    /// The key `superEncoder()` and `superDecoder()` use.
    static let `super` = CodingPathKey(stringValue: "super")
}
