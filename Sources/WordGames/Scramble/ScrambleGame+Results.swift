extension ScrambleGame {
    /// The line the room announces when a round ends: "Round 2 · PLASTERS: Bob found the most (14 points)", or
    /// "nobody found a word"; after the match's last round, the match's winner follows ("Bob wins the match with
    /// 52 points").
    ///
    /// - Parameters:
    ///   - round: The round that ended.
    ///   - final: The match's final standings when that round was its last.
    static func resultText(of round: RoundSummary, final: [ScoreLine]?) -> String {
        var text = "Round \(round.number) · \(round.root): " + bestFinders(of: round)
        if let final { text += ". " + matchWinners(final) }
        return text
    }

    /// "Bob found the most (14 points)", "Ana and Bob found the most (9 points each)" or "nobody found a word".
    private static func bestFinders(of round: RoundSummary) -> String {
        // Found words are newest first: the earliest finder comes last; order names by who found first.
        var points: [PlayerID: Int] = [:]
        var names: [PlayerID: String] = [:]
        var order: [PlayerID] = []
        for word in round.found.reversed() {
            if points[word.player] == nil { order.append(word.player) }
            points[word.player, default: 0] += word.points
            names[word.player] = word.name
        }
        guard let best = points.values.max(), best > 0 else { return "nobody found a word" }
        let winners = order.filter { points[$0] == best }.compactMap { names[$0] }
        let each = winners.count > 1 ? " each" : ""
        return "\(listed(winners)) found the most (\(pointsText(best))\(each))"
    }

    /// "Bob wins the match with 52 points", "Ana and Bob tie for the match with 30 points" or "Nobody scored in
    /// the match".
    private static func matchWinners(_ board: [ScoreLine]) -> String {
        guard let best = board.first, best.score > 0 else { return "Nobody scored in the match" }
        let winners = board.filter { $0.rank == 1 }.map(\.name)
        if winners.count == 1 { return "\(winners[0]) wins the match with \(pointsText(best.score))" }
        return "\(listed(winners)) tie for the match with \(pointsText(best.score))"
    }

    private static func pointsText(_ points: Int) -> String {
        "\(points) point\(points == 1 ? "" : "s")"
    }

    /// "Ana", "Ana and Bob", "Ana, Bob and Cleo".
    private static func listed(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
