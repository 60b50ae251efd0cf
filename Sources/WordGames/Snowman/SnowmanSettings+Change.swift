extension SnowmanSettings {
    /// What a host's `create` or `settings` message changes: any of the numbers, the pack, the word source, the
    /// host's own words, and (on `create` only) whether the table waits for the host's `new_game`.
    ///
    /// Text settings that are not text are kept as `.set(nil)`, so that the refusal says which setting and what
    /// it takes (`"pack" must be text. Choose one of ...`).
    public struct Change: Decodable, Sendable, Equatable {
        public var maxWrongGuesses: SettingUpdate<Int> = .unchanged
        public var turnSeconds: SettingUpdate<Int> = .unchanged
        public var pack: SettingUpdate<String?> = .unchanged
        public var wordSource: SettingUpdate<String?> = .unchanged
        public var customWords: SettingUpdate<String?> = .unchanged
        /// A `create` option, neither stored nor shown: open the room waiting for the host's `new_game`.
        public var waitForHost: SettingUpdate<Bool?> = .unchanged

        public init() {}

        private enum CodingKeys: String, CodingKey {
            case maxWrongGuesses, turnSeconds, pack, wordSource, customWords, waitForHost
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            maxWrongGuesses = try container.update(Int.self, .maxWrongGuesses)
            turnSeconds = try container.update(Int.self, .turnSeconds)
            pack = try Self.text(container, .pack)
            wordSource = try Self.text(container, .wordSource)
            customWords = try Self.text(container, .customWords)
            if container.contains(.waitForHost) {
                waitForHost = .set(try? container.decodeIfPresent(Bool.self, forKey: .waitForHost) ?? false)
            }
        }

        /// The text at `key`, `.set(nil)` when it is there but not text.
        private static func text(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
            -> SettingUpdate<String?> {
            guard container.contains(key) else { return .unchanged }
            if try container.decodeNil(forKey: key) { return .off }
            return .set(try? container.decode(String.self, forKey: key))
        }

        /// `waitForHost`, refused when it is neither true nor false.
        public var waitsForHost: Bool {
            get throws(Rejection) {
                switch waitForHost {
                case .unchanged, .off: return false
                case .set(let flag?): return flag
                case .set(nil): throw .notOnOrOff(setting: CodingKeys.waitForHost.rawValue)
                }
            }
        }
    }

    /// These settings with what `change` changes, checked.
    ///
    /// - Parameter packs: The packs `pack` may name.
    /// - Throws: `SettingsError` for a number out of range; `Rejection` for an unknown pack or word source, or
    ///   custom words to play with when there are none; `CustomWordList.Rejection` for custom words that do not
    ///   hold.
    public func applying(_ change: Change, packs: [WordPack]) throws -> SnowmanSettings {
        var pack = self.pack
        switch change.pack {
        case .unchanged: break
        case .set(let id?) where packs.contains(where: { $0.id == id }): pack = id
        case .set(let given): throw Rejection.unknownPack(given: given, packs: Self.names(packs))
        case .off: throw Rejection.unknownPack(given: nil, packs: Self.names(packs))
        }
        var customWords = self.customWords
        switch change.customWords {
        case .unchanged: break
        case .set(let text?): customWords = try CustomWordList.parse(text)
        case .set(nil), .off: throw CustomWordList.Rejection.notText
        }
        var source = wordSource
        switch change.wordSource {
        case .unchanged: break
        case .set(let name?):
            guard let chosen = WordSource(rawValue: name) else { throw Rejection.unknownWordSource(given: name) }
            guard chosen == .pack || customWords != nil else { throw Rejection.noCustomWords(chosen) }
            source = chosen
        case .set(nil), .off: throw Rejection.unknownWordSource(given: nil)
        }
        _ = try change.waitsForHost
        let wrong: Int
        switch change.maxWrongGuesses {
        case .set(let value): wrong = value
        case .unchanged, .off: wrong = maxWrongGuesses
        }
        let turn: Int?
        switch change.turnSeconds {
        case .unchanged: turn = turnSeconds
        case .off, .set(0): turn = nil
        case .set(let value): turn = value
        }
        // Without custom words (cleared with ""), the source falls back to the pack.
        return try SnowmanSettings(maxWrongGuesses: wrong, turnSeconds: turn, pack: pack, wordSource: source,
                                   customWords: customWords)
    }

    private static func names(_ packs: [WordPack]) -> [PackName] {
        packs.map { PackName(id: $0.id, title: $0.title) }
    }
}
