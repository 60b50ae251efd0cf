/// Latencies in microseconds, counted in log-linear buckets (the layout of HdrHistogram): exact below
/// `linearLimit`, then every power of two split into `halfBuckets` equal buckets, so a recorded value is known
/// to within 1/1024 of itself (0.1%) from 1 µs up to `maxValue` (about 71 minutes).
///
/// Recording is an index computation and an increment: one histogram per event-loop thread, no locks, merged
/// when the run ends. The 12,288 counters (96 KB) are allocated on the first record, so unused histograms
/// cost nothing.
public struct LogLinearHistogram: Sendable, Equatable {
    /// Values below this are counted exactly, one bucket each.
    public static let linearLimit: UInt64 = 1 << subBucketBits
    /// Largest value kept apart; bigger ones are counted in the last bucket (and still set `max`).
    public static let maxValue: UInt64 = (1 << 32) - 1
    static let subBucketBits: UInt64 = 10
    static let halfBuckets = Int(linearLimit / 2)
    static let bucketCount = Int(linearLimit) + (32 - Int(subBucketBits)) * halfBuckets

    private var counts: [UInt64] = []
    /// Values recorded.
    public private(set) var count: UInt64 = 0
    /// Sum of the recorded values (for the mean), in microseconds.
    public private(set) var sum: UInt64 = 0
    /// Smallest value recorded, exactly; `UInt64.max` when empty.
    public private(set) var min = UInt64.max
    /// Largest value recorded, exactly (even beyond `maxValue`); 0 when empty.
    public private(set) var max: UInt64 = 0

    public init() {}

    /// Counts one value.
    ///
    /// - Parameter microseconds: The latency.
    public mutating func record(_ microseconds: UInt64) {
        if counts.isEmpty { counts = [UInt64](repeating: 0, count: Self.bucketCount) }
        counts[Self.bucketIndex(of: microseconds)] &+= 1
        count &+= 1
        sum &+= microseconds
        if microseconds < min { min = microseconds }
        if microseconds > max { max = microseconds }
    }

    /// Counts the time from `start` to `end`, both in nanoseconds of the same clock; a negative span counts as 0.
    public mutating func record(fromNanoseconds start: UInt64, to end: UInt64) {
        record(end > start ? (end - start) / 1000 : 0)
    }

    /// Adds every value counted by `other`.
    public mutating func merge(_ other: LogLinearHistogram) {
        guard other.count > 0 else { return }
        if counts.isEmpty {
            counts = other.counts
        } else {
            for index in counts.indices { counts[index] &+= other.counts[index] }
        }
        count &+= other.count
        sum &+= other.sum
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    /// The values counted since `earlier`, an earlier copy of this same running histogram: the recent part of it,
    /// for the report's timeline (one subtraction a second instead of a second histogram on every record).
    ///
    /// Percentiles of the result are as exact as this histogram's. Its `max` is exact when it grew since
    /// `earlier` (the run's largest value is recent), else the top of the highest recent bucket (within 0.1%);
    /// the same for `min`.
    ///
    /// - Parameter earlier: A copy taken before, with a subset of this histogram's values.
    /// - Returns: The histogram of the values recorded in between.
    public func subtracting(_ earlier: LogLinearHistogram) -> LogLinearHistogram {
        guard earlier.count > 0 else { return self }
        var recent = LogLinearHistogram()
        guard count > earlier.count, counts.count == earlier.counts.count else { return recent }
        recent.counts = zip(counts, earlier.counts).map { $0 &- $1 }
        recent.count = count &- earlier.count
        recent.sum = sum &- earlier.sum
        if let first = recent.counts.firstIndex(where: { $0 > 0 }),
           let last = recent.counts.lastIndex(where: { $0 > 0 }) {
            recent.min = min < earlier.min ? min : Swift.max(min, Self.lowestValue(inBucket: first))
            recent.max = max > earlier.max ? max : Swift.min(max, Self.highestValue(inBucket: last))
        }
        return recent
    }

    /// The mean in microseconds, or 0 when empty.
    public var mean: Double {
        count == 0 ? 0 : Double(sum) / Double(count)
    }

    /// The value below or at which `percentile` percent of the recorded values lie (nearest rank), reported as
    /// the largest value of its bucket (as HdrHistogram does) and never above the exact `max`.
    ///
    /// - Parameter percentile: 0 to 100, to four decimals; 0 gives the minimum, 100 the maximum.
    /// - Returns: Microseconds, or 0 when nothing was recorded.
    public func value(atPercentile percentile: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let clamped = Swift.min(100, Swift.max(0, percentile))
        if clamped == 0 { return min }
        // Nearest rank: the smallest value with at least ceil(p% of count) values at or below it. In integers
        // (the percentile in millionths), since 99.9 / 100 * 1000 is 999.0000000000001 in floating point.
        let millionths = UInt64((clamped * 10_000).rounded())
        let (quotient, remainder) = UInt64(1_000_000).dividingFullWidth(millionths.multipliedFullWidth(by: count))
        let rank = Swift.max(1, quotient + (remainder > 0 ? 1 : 0))
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= rank {
                return Swift.max(min, Swift.min(max, Self.highestValue(inBucket: index)))
            }
        }
        return max
    }

    /// The bucket counting `value`.
    static func bucketIndex(of value: UInt64) -> Int {
        if value < linearLimit { return Int(value) }
        let clamped = Swift.min(value, maxValue)
        // Shift so that the value's top `subBucketBits` bits remain: that is its bucket within its power of two.
        let magnitude = UInt64(63 - clamped.leadingZeroBitCount)
        let shift = magnitude - (subBucketBits - 1)
        let subBucket = Int(clamped >> shift) - halfBuckets
        return Int(linearLimit) + Int(shift - 1) * halfBuckets + subBucket
    }

    /// The smallest value counted in bucket `index`.
    static func lowestValue(inBucket index: Int) -> UInt64 {
        if index < Int(linearLimit) { return UInt64(index) }
        let offset = index - Int(linearLimit)
        let shift = UInt64(offset / halfBuckets + 1)
        let subBucket = UInt64(offset % halfBuckets + halfBuckets)
        return subBucket << shift
    }

    /// The largest value counted in bucket `index`.
    static func highestValue(inBucket index: Int) -> UInt64 {
        index + 1 < bucketCount ? lowestValue(inBucket: index + 1) - 1 : maxValue
    }

    /// count, min, mean, p50, p90, p99, p99.9 and max, in microseconds.
    public var summary: LatencySummary {
        LatencySummary(
            count: count, min: count == 0 ? 0 : min, mean: mean,
            p50: value(atPercentile: 50), p90: value(atPercentile: 90), p99: value(atPercentile: 99),
            p999: value(atPercentile: 99.9), max: max)
    }
}

/// The figures of a latency histogram, in microseconds.
public struct LatencySummary: Sendable, Equatable {
    public var count: UInt64
    public var min: UInt64
    public var mean: Double
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var p999: UInt64
    public var max: UInt64
}
