/// Keeps a failure that repeats from flooding the log: the first line of a cause is logged at once, the
/// repeats only counted, and the count logged at most every `window` seconds (`journal: write failed: No space
/// left on device (ENOSPC) ×312 in the last 10 s`). A full disk used to log the same line 670 times.
struct LogCoalescer {
    static let window = 10.0

    private var causes: [String: (count: Int, since: Double)] = [:]

    /// The line to log for an occurrence of `line` at `now` (monotonic seconds), or nil when it is only counted.
    mutating func note(_ line: String, now: Double) -> String? {
        guard let seen = causes[line] else {
            causes[line] = (0, now)
            return line
        }
        causes[line] = (seen.count + 1, seen.since)
        return now - seen.since >= Self.window ? take(line, now: now) : nil
    }

    /// The counts of causes whose window has passed at `now`, as lines to log; causes without repeats in their
    /// window are forgotten, so that their next occurrence is logged at once.
    mutating func due(now: Double) -> [String] {
        var lines: [String] = []
        for line in causes.keys.sorted() where now - causes[line]!.since >= Self.window {
            if let summary = take(line, now: now) { lines.append(summary) } else { causes[line] = nil }
        }
        return lines
    }

    /// Every count not yet logged (when the failures end, or at a stop), and forgets every cause.
    mutating func drain(now: Double) -> [String] {
        let lines = causes.keys.sorted().compactMap { take($0, now: now) }
        causes.removeAll()
        return lines
    }

    /// The repeats of `line` since its last line, and starts a new window.
    private mutating func take(_ line: String, now: Double) -> String? {
        guard let seen = causes[line], seen.count > 0 else { return nil }
        causes[line] = (0, now)
        return "\(line) ×\(seen.count) in the last \(Self.seconds(now - seen.since)) s"
    }

    private static func seconds(_ value: Double) -> String {
        value < 10 ? String(Double(Int(value * 10)) / 10) : String(Int(value))
    }
}
