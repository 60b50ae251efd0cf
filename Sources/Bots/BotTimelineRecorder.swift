import Dispatch
import Synchronization
import Transport
import Runtime

/// Builds a run's `BotTimeline` on the driver thread: at the end of every interval it takes a point from a
/// snapshot of the loops' merged counts and the transport's wire bytes, and the bots' CPU time, and asks for a
/// sample of the server's memory and CPU on a queue of its own.
///
/// The server is sampled off the driver thread because `GET /metrics` blocks for as long as a busy server takes
/// to answer, and the driver's ticks pace the ramp and the fixed-rate echoes. A sample still running when the
/// next interval ends makes that interval go without (the next one's CPU then spans both).
final class BotTimelineRecorder {
    private let startedAt: UInt64
    private let intervalNanoseconds: UInt64
    private var nextBoundary: UInt64
    private var timeline: BotTimeline
    /// The running counts when the last point was taken, and when the one before it was (while that last point
    /// is the timeline's last: `finish` may take it again, longer).
    private var previous: Snapshot
    private var beforePrevious: Snapshot?
    private let snapshot: () -> (BotStats, WireBytes)
    private let server: ServerTrack

    /// Bytes on the bots' sockets so far, each way.
    struct WireBytes {
        var bytesIn = 0
        var bytesOut = 0
    }

    /// Everything a point is the difference of.
    private struct Snapshot {
        var stats: BotStats
        var at: UInt64
        var wire: WireBytes
        var cpu: CPUTime
    }

    /// - Parameters:
    ///   - startedAt: Monotonic nanoseconds of the run's start: the timeline's zero.
    ///   - plannedSeconds: How long the run may last (duration, drain and close), to choose the interval.
    ///   - sampler: Reads the server's memory and CPU.
    ///   - serverStart: The sample taken before the run, the base of the first interval's server CPU.
    ///   - cpuStart: The bots' CPU time at `startedAt`.
    ///   - snapshot: Reads the loops' merged running counts and the transport's byte counts, as nearly at the
    ///     same moment as it can (on the driver thread; it blocks until every loop answered).
    init(startedAt: UInt64, plannedSeconds: Double, sampler: ServerSampler, serverStart: ServerSample,
         cpuStart: CPUTime, snapshot: @escaping () -> (BotStats, WireBytes)) {
        let interval = BotTimeline.intervalSeconds(forRunOf: plannedSeconds)
        self.startedAt = startedAt
        self.intervalNanoseconds = UInt64(interval) * 1_000_000_000
        self.nextBoundary = startedAt + intervalNanoseconds
        self.timeline = BotTimeline(intervalSeconds: interval)
        self.previous = Snapshot(stats: BotStats(), at: startedAt, wire: WireBytes(), cpu: cpuStart)
        self.snapshot = snapshot
        self.server = ServerTrack(sampler: sampler, start: serverStart)
    }

    /// Takes the point of the interval ending at `now`, if one has ended.
    func record(at now: UInt64) {
        guard now >= nextBoundary else { return }
        takePoint(at: now, waitForServer: false)
        while nextBoundary <= now { nextBoundary += intervalNanoseconds }
    }

    /// Takes the last point (the end of the run up to `now`) and waits for the server's samples.
    ///
    /// A last stretch shorter than half an interval is added to the point before rather than drawn on its own:
    /// rates and CPU use over a few milliseconds are noise (the server's CPU time moves in 10 ms ticks).
    func finish(at now: UInt64) -> BotTimeline {
        if now - previous.at < intervalNanoseconds / 2, let before = beforePrevious {
            timeline.removeLast()
            previous = before
        }
        if now > previous.at { takePoint(at: now, waitForServer: true) }
        for (index, figures) in server.figures() {
            timeline.setServer(ofPoint: index, residentBytes: figures.residentBytes, cpuPercent: figures.cpuPercent)
        }
        return timeline
    }

    private func takePoint(at time: UInt64, waitForServer: Bool) {
        let (stats, wire) = snapshot()
        let now = Snapshot(stats: stats, at: time, wire: wire, cpu: ProcessUsage.cpuTime())
        var point = BotTimeline.Point(start: Double(previous.at - startedAt) / 1e9,
                                      length: Double(now.at - previous.at) / 1e9, from: previous.stats, to: now.stats)
        point.wireBytesIn = now.wire.bytesIn - previous.wire.bytesIn
        point.wireBytesOut = now.wire.bytesOut - previous.wire.bytesOut
        if point.length > 0 { point.botCPUPercent = now.cpu.since(previous.cpu).total / point.length * 100 }
        let index = timeline.points.count
        timeline.append(point)
        let kept = index < timeline.points.count
        if kept { server.sample(forPoint: index, wait: waitForServer) }
        beforePrevious = kept ? previous : nil
        previous = now
    }
}

@available(*, unavailable)
extension BotTimelineRecorder: Sendable {}

/// The server's samples of a timeline, taken on a serial queue and kept by point until the run ends.
private final class ServerTrack: Sendable {
    struct Figures {
        var residentBytes: Int?
        var cpuPercent: Double?
    }

    private let sampler: ServerSampler
    private let start: ServerSample
    private let queue = DispatchQueue(label: "wordrooms-bots.server-sampler")
    private let samples = Mutex<[Int: ServerSample]>([:])
    /// A sample is being taken: the next interval goes without rather than queue behind it.
    private let busy = Atomic<Bool>(false)

    init(sampler: ServerSampler, start: ServerSample) {
        self.sampler = sampler
        self.start = start
    }

    /// Samples the server for point `index` (replacing a sample it had), in the background unless `wait`.
    func sample(forPoint index: Int, wait: Bool) {
        if wait {
            queue.sync { self.take(forPoint: index) }
            return
        }
        guard !busy.exchange(true, ordering: .acquiring) else { return }
        queue.async {
            self.take(forPoint: index)
            self.busy.store(false, ordering: .releasing)
        }
    }

    /// Every sampled point's figures, once the samples under way are done: its memory, and the CPU used since
    /// the sample before it (the start's for the first).
    func figures() -> [Int: Figures] {
        queue.sync {}
        let samples = samples.withLock { $0 }
        var figures: [Int: Figures] = [:]
        var before = start
        for index in samples.keys.sorted() {
            let sample = samples[index]!
            var point = Figures(residentBytes: sample.residentBytes)
            if let cpu = sample.cpuSeconds, let earlier = before.cpuSeconds, sample.takenAt > before.takenAt {
                point.cpuPercent = (cpu - earlier) / (Double(sample.takenAt - before.takenAt) / 1e9) * 100
            }
            if sample.cpuSeconds != nil { before = sample }
            figures[index] = point
        }
        return figures
    }

    private func take(forPoint index: Int) {
        let sample = sampler.sample()
        samples.withLock { $0[index] = sample }
    }
}
