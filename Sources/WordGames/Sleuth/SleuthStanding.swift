/// One player's running total over the rounds a Sleuth room played: who is winning the evening. Shown
/// (`leaderboard`) and saved alike.
public struct SleuthStanding: Hashable, Sendable, Codable {
    public var player: PlayerID
    /// Their name as of their latest round.
    public var name: String
    /// Points over every finished round.
    public var total: Int
    /// Rounds they solved.
    public var solved: Int
    /// Rounds in which they had the top score (tied top scores all count; a round nobody solved has no winner).
    public var wins: Int
    /// Finished rounds they played.
    public var rounds: Int
    /// 1 for the best total; players tied on total and wins share a rank ("1, 1, 3").
    public var rank: Int

    public init(player: PlayerID, name: String, total: Int = 0, solved: Int = 0, wins: Int = 0, rounds: Int = 0,
                rank: Int = 0) {
        self.player = player
        self.name = name
        self.total = total
        self.solved = solved
        self.wins = wins
        self.rounds = rounds
        self.rank = rank
    }

    /// `standings` with a finished round's boards added, best first, ranked.
    static func adding(_ boards: [SleuthGame.Board], to standings: [SleuthStanding]) -> [SleuthStanding] {
        var updated = standings
        let top = boards.map(\.points).max() ?? 0
        for board in boards {
            let index = updated.firstIndex { $0.player == board.player } ?? {
                updated.append(SleuthStanding(player: board.player, name: board.name))
                return updated.count - 1
            }()
            updated[index].name = board.name
            updated[index].total += board.points
            updated[index].rounds += 1
            if board.solved { updated[index].solved += 1 }
            if top > 0 && board.points == top { updated[index].wins += 1 }
        }
        // Stable: players tied on both keys keep the order in which they first played.
        let sorted = updated.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.total != b.total { return a.total > b.total }
            if a.wins != b.wins { return a.wins > b.wins }
            return lhs.offset < rhs.offset
        }.map(\.element)
        var ranked: [SleuthStanding] = []
        ranked.reserveCapacity(sorted.count)
        for (position, standing) in sorted.enumerated() {
            var line = standing
            if let previous = ranked.last, previous.total == line.total, previous.wins == line.wins {
                line.rank = previous.rank
            } else {
                line.rank = position + 1
            }
            ranked.append(line)
        }
        return ranked
    }
}
