import Synchronization

/// Counts durations into fixed buckets, Prometheus-style (cumulative when exported). Safe from any thread.
public final class LatencyHistogram: Sendable {
    /// Upper bounds in seconds, from 50 µs to 1 s.
    public static let bounds: [Double] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                          0.05, 0.1, 0.25, 0.5, 1]

    public struct Counts: Sendable {
        /// Observations per bucket (not cumulative); the last is above every bound.
        public var buckets: [Int] = Array(repeating: 0, count: LatencyHistogram.bounds.count + 1)
        public var count = 0
        public var sum: Double = 0
    }

    private let counts = Mutex(Counts())

    public init() {}

    public func observe(_ seconds: Double) {
        let index = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        counts.withLock { counts in
            counts.buckets[index] += 1
            counts.count += 1
            counts.sum += seconds
        }
    }

    public var snapshot: Counts {
        counts.withLock { $0 }
    }
}
