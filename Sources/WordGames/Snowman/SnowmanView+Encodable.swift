/// `state.snowman` on the wire (the game's protocol appendix, `PROTOCOL.md` in this folder).
extension SnowmanView: Encodable {
    private enum CodingKeys: String, CodingKey {
        case gameNumber, status, statusLine, positions, guesses, wrongGuesses, maxWrongGuesses, scores, turn
        case turnEndsAt, word, canStartNext, settings, nextSettings, history, leaderboard
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gameNumber, forKey: .gameNumber)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(statusLine, forKey: .statusLine)
        try container.encode(positions, forKey: .positions)
        try container.encode(guesses, forKey: .guesses)
        try container.encode(wrongGuesses, forKey: .wrongGuesses)
        try container.encode(maxWrongGuesses, forKey: .maxWrongGuesses)
        try container.encode(players, forKey: .scores)
        try container.encode(turn, forKey: .turn)
        try container.encode(turnDeadline, forKey: .turnEndsAt)
        try container.encode(word, forKey: .word)
        try container.encode(canStartNextGame, forKey: .canStartNext)
        try container.encode(settings, forKey: .settings)
        try container.encode(nextSettings, forKey: .nextSettings)
        try container.encode(history, forKey: .history)
        try container.encode(leaderboard, forKey: .leaderboard)
    }
}

/// A guess as members see it: whether it hit and what it scored (a snapshot saves what it revealed instead).
extension SnowmanGame.Guess: Encodable {
    private enum CodingKeys: String, CodingKey { case letter, player, hit, points }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(letter, forKey: .letter)
        try container.encode(player, forKey: .player)
        try container.encode(isCorrect, forKey: .hit)
        try container.encode(points, forKey: .points)
    }
}

extension SnowmanView.Position: Encodable {
    private enum CodingKeys: String, CodingKey { case id, letter, missed }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(letter, forKey: .letter)
        try container.encode(isMissed, forKey: .missed)
    }
}

/// The settings as members see them: the host's own words as their count.
extension SnowmanView.Settings: Encodable {
    private enum CodingKeys: String, CodingKey { case maxWrongGuesses, turnSeconds, pack, wordSource, customWords }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxWrongGuesses, forKey: .maxWrongGuesses)
        try container.encode(turnSeconds, forKey: .turnSeconds)
        try container.encode(pack, forKey: .pack)
        try container.encode(wordSource.rawValue, forKey: .wordSource)
        try container.encode(customWords, forKey: .customWords)
    }
}
