/// One player's line in a room's leaderboard: their running total over the rounds (or games) the room finished,
/// who is winning the evening. Every game ranks it alike (total, then wins, ties sharing a rank); each game's line
/// type counts its own extras under its own JSON keys (Snowman `games`, Sleuth `rounds` and `solved`), which the
/// saved snapshots and the views keep.
protocol LeaderboardStanding {
    /// A player's result in one finished round.
    associatedtype Outcome: RoundOutcome

    var player: PlayerID { get }
    var name: String { get set }
    /// Points over every finished round.
    var total: Int { get set }
    /// Rounds in which they had the top score.
    var wins: Int { get set }
    /// 1 for the best total; players tied on total and wins share a rank ("1, 1, 3").
    var rank: Int { get set }

    /// A line for a player's first round: nothing counted yet.
    init(player: PlayerID, name: String)

    /// Counts the game's extras of `outcome` (rounds played, rounds solved); points and wins are counted already.
    mutating func count(_ outcome: Outcome)
}

extension LeaderboardStanding {
    /// `standings` with a finished round's outcomes added, best first, ranked. Runs once per finished round.
    static func adding(_ outcomes: [Outcome], to standings: [Self]) -> [Self] {
        var updated = standings
        // A round nobody scored in has no winner; tied top scores all win.
        let top = outcomes.map(\.points).max() ?? 0
        for outcome in outcomes {
            let index = updated.firstIndex { $0.player == outcome.player } ?? {
                updated.append(Self(player: outcome.player, name: outcome.name))
                return updated.count - 1
            }()
            updated[index].name = outcome.name
            updated[index].total += outcome.points
            if top > 0 && outcome.points == top { updated[index].wins += 1 }
            updated[index].count(outcome)
        }
        // Stable: players tied on both keys keep the order in which they first played.
        let sorted = updated.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.total != b.total { return a.total > b.total }
            if a.wins != b.wins { return a.wins > b.wins }
            return lhs.offset < rhs.offset
        }.map(\.element)
        var ranked: [Self] = []
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
