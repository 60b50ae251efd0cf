/// The word lists as the bots of one thread share them, with what is worth computing once per thread.
///
/// Not `Sendable`: each event-loop thread of the bots has its own, so that the memo needs no lock.
public final class BotWords {
    /// The bundled lists, nil when no game of the run uses them (`GameBot.usesWordLists`).
    public let lists: WordLists?
    private var spelledCache: [String: [String]] = [:]

    public init(lists: WordLists?) {
        self.lists = lists
    }

    /// Dictionary words spelled from `letters`, computed once per letters and thread.
    ///
    /// - Returns: The words of at least `minimumLength` letters; none without word lists.
    public func words(spelledFrom letters: String, minimumLength: Int) -> [String] {
        let key = "\(minimumLength):\(letters)"
        if let cached = spelledCache[key] { return cached }
        let words = lists?.lexicon.words(spelledFrom: letters, minimumLength: minimumLength) ?? []
        spelledCache[key] = words
        return words
    }
}

@available(*, unavailable)
extension BotWords: Sendable {}
