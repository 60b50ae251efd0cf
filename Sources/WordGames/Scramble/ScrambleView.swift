/// Everything any player or spectator of a Word Scramble room may see: the value the rooms layer encodes to JSON
/// and diffs into patches.
///
/// During a round it shows how many words the root offers but never which; the missed words appear in
/// `lastRound` once the round is over.
public struct ScrambleView: Hashable, Sendable {
    /// One present player: the line both games show.
    public typealias PlayerLine = WordGames.PlayerLine

    /// 1 for the room's first match; 0 in the lobby.
    public var matchNumber: Int
    /// Lobby, playing, intermission or finished.
    public var phase: ScrambleGame.Phase
    /// What is happening, e.g. "Round 2 of 6 — find words of 3+ letters in PROBLEMS".
    public var statusLine: String
    /// The current (or last) round, from 1; 0 in the lobby.
    public var roundNumber: Int
    /// Rounds in the current (or last) match.
    public var totalRounds: Int
    /// The current (or last) root, uppercase; `nil` in the lobby.
    public var root: String?
    /// Shortest word accepted in this match.
    public var minWordLength: Int
    /// How many valid words the root offers (the lexicon's unshown words only once found); `nil` in the lobby.
    public var totalWords: Int?
    /// Words found this round, newest first.
    public var found: [ScrambleGame.FoundWord]
    /// When the round or intermission ends (same clock as the `now` given to the game); `nil` otherwise.
    public var phaseEndsAt: Double?
    /// Present players in join order.
    public var players: [PlayerLine]
    /// Standings of the current (or last) match, best first, including players who left.
    public var scoreboard: [ScoreLine]
    /// The round that just ended, with its missed words: during an intermission and once the match is finished.
    public var lastRound: ScrambleGame.RoundSummary?
    /// Final standings once the match is finished.
    public var finalScoreboard: [ScoreLine]?
    /// Every finished round of the current (or last) match, in order: what the final screen lists.
    public var roundsPlayed: [ScrambleGame.RoundSummary]
    /// Players who pressed Ready this intermission, in pressing order; empty otherwise.
    public var ready: [PlayerID]
    /// Whether the host may start a new match now.
    public var canStartMatch: Bool
    /// Settings of the current (or last) match.
    public var settings: ScrambleSettings
    /// Settings the next match will use.
    public var nextSettings: ScrambleSettings
}

extension ScrambleGame {
    /// The public view of the room: safe to send to every player and spectator.
    public var view: ScrambleView {
        ScrambleView(
            matchNumber: matchNumber,
            phase: phase,
            statusLine: statusLine,
            roundNumber: roundNumber,
            totalRounds: settings.rounds,
            root: root?.uppercased(),
            minWordLength: settings.minWordLength,
            totalWords: root == nil ? nil : totalWords,
            found: found,
            phaseEndsAt: phaseEndsAt,
            players: players.map { ScrambleView.PlayerLine(id: $0.id, name: $0.name, score: scores[$0.id, default: 0]) },
            scoreboard: scoreboard,
            lastRound: phase == .intermission || phase == .finished ? completedRounds.last : nil,
            finalScoreboard: finalScoreboard,
            roundsPlayed: completedRounds,
            ready: ready,
            canStartMatch: !isMatchRunning && !players.isEmpty,
            settings: settings,
            nextSettings: nextSettings)
    }

    /// The status line of the round being played: written once when the round starts, since every view shows it.
    static func roundStatusLine(round: Int, of rounds: Int, minWordLength: Int, root: String?) -> String {
        "Round \(round) of \(rounds) — find words of \(minWordLength)+ letters in \((root ?? "").uppercased())"
    }

    /// Tells players what is happening or how the match ended.
    public var statusLine: String {
        switch phase {
        case .lobby:
            return players.isEmpty ? "Waiting for players to join" : "Waiting for the host to start the match"
        case .playing:
            return roundStatusLine
        case .intermission:
            return "Round \(roundNumber) of \(settings.rounds) is over — round \(roundNumber + 1) starts soon"
        case .finished:
            let board = finalScoreboard ?? scoreboard
            guard let best = board.first, best.score > 0 else { return "Match over — no words found" }
            let winners = board.filter { $0.rank == 1 }.map(\.name)
            let points = "\(best.score) point\(best.score == 1 ? "" : "s")"
            if winners.count == 1 {
                return "Match over — \(winners[0]) wins with \(points)!"
            }
            let names = winners.dropLast().joined(separator: ", ") + " and " + winners[winners.count - 1]
            return "Match over — \(names) tie with \(points)!"
        }
    }
}
