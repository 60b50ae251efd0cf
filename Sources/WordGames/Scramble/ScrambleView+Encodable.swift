/// `state.scramble` on the wire (the game's protocol appendix, `PROTOCOL.md` in this folder).
extension ScrambleView: Encodable {
    private enum CodingKeys: String, CodingKey {
        case matchNumber, phase, statusLine, round, rounds, root, minWordLength, totalWords, found, phaseEndsAt
        case scores, scoreboard, lastRound, finalScoreboard, roundsPlayed, ready, canStartNext, settings
        case nextSettings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(matchNumber, forKey: .matchNumber)
        try container.encode(phase.rawValue, forKey: .phase)
        try container.encode(statusLine, forKey: .statusLine)
        try container.encode(roundNumber, forKey: .round)
        try container.encode(totalRounds, forKey: .rounds)
        try container.encode(root, forKey: .root)
        try container.encode(minWordLength, forKey: .minWordLength)
        try container.encode(totalWords, forKey: .totalWords)
        try container.encode(found, forKey: .found)
        try container.encode(phaseEndsAt, forKey: .phaseEndsAt)
        try container.encode(players, forKey: .scores)
        try container.encode(scoreboard, forKey: .scoreboard)
        try container.encode(lastRound, forKey: .lastRound)
        try container.encode(finalScoreboard, forKey: .finalScoreboard)
        try container.encode(PlayedRounds(rounds: roundsPlayed), forKey: .roundsPlayed)
        try container.encode(ready, forKey: .ready)
        try container.encode(canStartMatch, forKey: .canStartNext)
        try container.encode(settings, forKey: .settings)
        try container.encode(nextSettings, forKey: .nextSettings)
    }

    /// The final screen's list of rounds: each round's root, how many words were found and the words missed.
    struct PlayedRounds: Encodable, Equatable {
        var rounds: [ScrambleGame.RoundSummary]

        private enum CodingKeys: String, CodingKey { case round, root, found, missed }

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            for summary in rounds {
                var line = list.nestedContainer(keyedBy: CodingKeys.self)
                try line.encode(summary.number, forKey: .round)
                try line.encode(summary.root.uppercased(), forKey: .root)
                try line.encode(summary.foundCount, forKey: .found)
                try line.encode(summary.missed, forKey: .missed)
            }
        }
    }
}

/// Shown and saved alike (a snapshot reads back the word, the finder and their name; the rest follows).
extension ScrambleGame.FoundWord: Codable {
    private enum CodingKeys: String, CodingKey { case word, length, player, name, points }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(word, forKey: .word)
        try container.encode(length, forKey: .length)
        try container.encode(player, forKey: .player)
        try container.encode(name, forKey: .name)
        try container.encode(points, forKey: .points)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(word: try container.decode(String.self, forKey: .word),
                  player: try container.decode(PlayerID.self, forKey: .player),
                  name: try container.decode(String.self, forKey: .name))
    }
}

/// The round just over as `lastRound` shows it (a snapshot also saves how many words were found).
extension ScrambleGame.RoundSummary: Encodable {
    private enum CodingKeys: String, CodingKey { case number, root, totalWords, found, missed }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(root.uppercased(), forKey: .root)
        try container.encode(totalWords, forKey: .totalWords)
        try container.encode(found, forKey: .found)
        try container.encode(missed, forKey: .missed)
    }
}
