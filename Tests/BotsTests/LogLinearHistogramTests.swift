import Testing
import WordGames
@testable import Bots

@Suite struct LogLinearHistogramTests {
    @Test func emptyHistogramReportsZeros() {
        let histogram = LogLinearHistogram()
        #expect(histogram.count == 0)
        #expect(histogram.value(atPercentile: 50) == 0)
        #expect(histogram.value(atPercentile: 100) == 0)
        #expect(histogram.mean == 0)
        #expect(histogram.summary == LatencySummary(count: 0, min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0))
    }

    @Test func singleValueIsEveryPercentile() {
        var histogram = LogLinearHistogram()
        histogram.record(123_456)
        for percentile in [0.0, 1, 50, 99, 99.9, 100] {
            #expect(histogram.value(atPercentile: percentile) == 123_456, "p\(percentile)")
        }
        #expect(histogram.min == 123_456)
        #expect(histogram.max == 123_456)
    }

    @Test func valuesBelowTheLinearLimitAreExact() {
        var histogram = LogLinearHistogram()
        for value in 1...1000 { histogram.record(UInt64(value)) }
        // Nearest rank of 1...1000: p50 is the 500th value, p99 the 990th, p99.9 the 999th.
        #expect(histogram.value(atPercentile: 50) == 500)
        #expect(histogram.value(atPercentile: 90) == 900)
        #expect(histogram.value(atPercentile: 99) == 990)
        #expect(histogram.value(atPercentile: 99.9) == 999)
        #expect(histogram.value(atPercentile: 100) == 1000)
        #expect(histogram.value(atPercentile: 0) == 1)
        #expect(histogram.mean == 500.5)
    }

    @Test(arguments: [50.0, 75, 90, 99, 99.9])
    func uniformDistributionPercentilesWithinResolution(percentile: Double) {
        var histogram = LogLinearHistogram()
        let count = 1_000_000
        for value in 1...count { histogram.record(UInt64(value)) }
        let exact = percentile / 100 * Double(count)
        let reported = Double(histogram.value(atPercentile: percentile))
        // One bucket is at most 1/512 of its values wide: the reported upper bound is within 0.2% above.
        #expect(reported >= exact, "p\(percentile) = \(reported), exact \(exact)")
        #expect(reported <= exact * 1.002, "p\(percentile) = \(reported), exact \(exact)")
    }

    @Test func bimodalDistributionSplitsAtItsModes() {
        var histogram = LogLinearHistogram()
        for _ in 0..<900 { histogram.record(100) }       // 90% fast replies of 100 µs
        for _ in 0..<100 { histogram.record(50_000) }    // 10% slow replies of 50 ms
        #expect(histogram.value(atPercentile: 50) == 100)
        #expect(histogram.value(atPercentile: 90) == 100)
        #expect(histogram.value(atPercentile: 90.1) == 50_000)
        #expect(histogram.value(atPercentile: 99) == 50_000)
    }

    @Test func mergeEqualsRecordingEverythingInOne() {
        var all = LogLinearHistogram()
        var parts = [LogLinearHistogram(), LogLinearHistogram(), LogLinearHistogram()]
        var generator = SplitMix64(seed: 7)
        for index in 0..<30_000 {
            let value = UInt64.random(in: 0...10_000_000, using: &generator)
            all.record(value)
            parts[index % 3].record(value)
        }
        var merged = LogLinearHistogram()
        for part in parts { merged.merge(part) }
        #expect(merged == all)
        #expect(merged.count == 30_000)
        #expect(merged.summary == all.summary)
    }

    @Test func mergingEmptyHistogramsChangesNothing() {
        var histogram = LogLinearHistogram()
        histogram.record(5)
        let before = histogram
        histogram.merge(LogLinearHistogram())
        #expect(histogram == before)
        var empty = LogLinearHistogram()
        empty.merge(before)
        #expect(empty == before)
    }

    @Test func hugeValuesLandInTheLastBucketButKeepTheExactMaximum() {
        var histogram = LogLinearHistogram()
        histogram.record(UInt64(1) << 40)
        histogram.record(10)
        #expect(histogram.max == UInt64(1) << 40)
        #expect(histogram.value(atPercentile: 100) == LogLinearHistogram.maxValue)
        #expect(histogram.value(atPercentile: 50) == 10)
    }

    @Test func bucketsAreContiguousAndCoverTheirValues() {
        var previousHighest: UInt64?
        for index in 0..<LogLinearHistogram.bucketCount {
            let lowest = LogLinearHistogram.lowestValue(inBucket: index)
            let highest = LogLinearHistogram.highestValue(inBucket: index)
            if let previousHighest {
                #expect(lowest == previousHighest + 1, "bucket \(index)")
            }
            #expect(LogLinearHistogram.bucketIndex(of: lowest) == index)
            #expect(LogLinearHistogram.bucketIndex(of: highest) == index)
            // Relative width never exceeds 1/512 above the exact range.
            #expect(highest - lowest <= max(0, lowest / 512), "bucket \(index): \(lowest)...\(highest)")
            previousHighest = highest
        }
        #expect(previousHighest == LogLinearHistogram.maxValue)
    }

    @Test func spanFromNanosecondsCountsMicroseconds() {
        var histogram = LogLinearHistogram()
        histogram.record(fromNanoseconds: 1_000, to: 1_501_999)  // 1,500.999 µs, truncated
        histogram.record(fromNanoseconds: 2_000, to: 1_000)      // clock went backwards: counts as 0
        #expect(histogram.max == 1_500)
        #expect(histogram.min == 0)
        #expect(histogram.count == 2)
    }
}
