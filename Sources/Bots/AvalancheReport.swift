/// The figures of one reconnect storm (`wordrooms-bots avalanche`): who was seated, lost and back, how fast,
/// how (replayed patches or the whole state) and whether every room came out exact. Rendered as `summary` and
/// `json`.
public struct AvalancheReport: Sendable {
    public let options: BotOptions
    /// The soft open-files limit after raising it.
    public let fileLimit: Int
    /// Seconds since 1970 when the run started.
    public let startedAt: Double
    public let figures: AvalancheFigures
    /// What the bots counted as players (moves, patches, protocol errors).
    public let stats: BotStats
    /// Seconds from the start to the first lost connection; nil when none was lost.
    public let firstLossSeconds: Double?
    /// Seconds from the first lost connection to the last bot back in its seat.
    public let stormSeconds: Double?
    /// Final checks sent and not answered within the wait.
    public let checksUnanswered: Int

    public init(options: BotOptions, fileLimit: Int, startedAt: Double, figures: AvalancheFigures,
                stats: BotStats, firstLossSeconds: Double?, stormSeconds: Double?, checksUnanswered: Int) {
        self.options = options
        self.fileLimit = fileLimit
        self.startedAt = startedAt
        self.figures = figures
        self.stats = stats
        self.firstLossSeconds = firstLossSeconds
        self.stormSeconds = stormSeconds
        self.checksUnanswered = checksUnanswered
    }

    /// Bots that lost their connection and were not back in their seat at the end (refused ones included).
    public var notBack: Int { figures.lost - figures.back }
    /// Seated bots whose connection never ended (with `--drop server`: the server never closed it).
    public var neverLost: Int { figures.seated - figures.lost }
    /// Back bots as a share of the lost ones (1 when none was lost).
    public var backShare: Double { figures.lost > 0 ? Double(figures.back) / Double(figures.lost) : 1 }
    /// Resumes that came with the whole state, plus snapshots asked for after a gap: the resyncs.
    public var resyncs: Int { figures.resumedWithState + stats.resyncs }

    /// Why the run failed; empty when every bot came back and every room is exact.
    public var failures: [String] {
        var failures: [String] = []
        if figures.seated < figures.bots {
            failures.append("\(figures.bots - figures.seated) bots never got into their rooms")
        }
        if figures.lost == 0 { failures.append("no connection was lost: the drop never came") }
        if notBack > 0 { failures.append("\(notBack) bots not back in their seats") }
        if figures.rooms.mismatched > 0 {
            failures.append("\(figures.rooms.mismatched) rooms differ from the server's snapshot")
        }
        if checksUnanswered > 0 { failures.append("\(checksUnanswered) final checks unanswered") }
        return failures
    }

    /// 0 when every bot is back and every room exact, else 1.
    public var exitStatus: Int32 { failures.isEmpty ? 0 : 1 }
}
