import Dispatch
import Synchronization
import Transport
import Runtime

/// Builds a run's `BotTimeline` on the driver thread: at the end of every interval it takes a point from the
/// merged counts the driver already gathers each second, the transport's wire bytes and the bots' CPU time,
/// and asks for a sample of the server's memory and CPU on a queue of its own.
///
/// The server is sampled off the driver thread because `GET /metrics` blocks for as long as a busy server takes
/// to answer, and the driver's ticks pace the ramp and the fixed-rate echoes. A sample still running when the
/// next interval ends makes that interval go without (the next one's CPU then spans both).
final class BotTimelineRecorder {
    private let startedAt: UInt64
    private let intervalNanoseconds: UInt64
    private var nextBoundary: UInt64
    private var timeline: BotTimeline
    private var previous = BotStats()
    private var previousAt: UInt64
    private var previousWire = WireBytes()
    private var previousCPU: CPUTime
    private let wireBytes: () -> WireBytes
    private let server: ServerTrack

    /// Bytes on the bots' sockets so far, each way.
    struct WireBytes {
        var bytesIn = 0
        var bytesOut = 0
    }

    /// - Parameters:
    ///   - startedAt: Monotonic nanoseconds of the run's start: the timeline's zero.
    ///   - plannedSeconds: How long the run may last (duration, drain and close), to choose the interval.
    ///   - sampler: Reads the server's memory and CPU.
    ///   - serverStart: The sample taken before the run, the base of the first interval's server CPU.
    ///   - cpuStart: The bots' CPU time at `startedAt`.
    ///   - wireBytes: Reads the transport's byte counts (on the driver thread; it may block briefly).
    init(startedAt: UInt64, plannedSeconds: Double, sampler: ServerSampler, serverStart: ServerSample,
         cpuStart: CPUTime, wireBytes: @escaping () -> WireBytes) {
        let interval = BotTimeline.intervalSeconds(forRunOf: plannedSeconds)
        self.startedAt = startedAt
        self.intervalNanoseconds = UInt64(interval) * 1_000_000_000
        self.nextBoundary = startedAt + intervalNanoseconds
        self.timeline = BotTimeline(intervalSeconds: interval)
        self.previousAt = startedAt
        self.previousCPU = cpuStart
        self.wireBytes = wireBytes
        self.server = ServerTrack(sampler: sampler, start: serverStart)
    }

    /// Whether an interval has ended by `now`: then pass the merged counts to `record`.
    func isDue(_ now: UInt64) -> Bool {
        now >= nextBoundary
    }

    /// Takes the point of the interval ending at `now` if one has ended, from the merged running counts.
    func record(_ stats: BotStats, at now: UInt64) {
        guard isDue(now) else { return }
        takePoint(stats, at: now, waitForServer: false)
        while nextBoundary <= now { nextBoundary += intervalNanoseconds }
    }

    /// Takes the last point (the end of the run up to `now`) and waits for the server's samples.
    func finish(_ stats: BotStats, at now: UInt64) -> BotTimeline {
        if now > previousAt { takePoint(stats, at: now, waitForServer: true) }
        for (index, figures) in server.takeFigures() {
            timeline.setServer(ofPoint: index, residentBytes: figures.residentBytes, cpuPercent: figures.cpuPercent)
        }
        return timeline
    }

    private func takePoint(_ stats: BotStats, at now: UInt64, waitForServer: Bool) {
        let wire = wireBytes()
        let cpu = ProcessUsage.cpuTime()
        var point = BotTimeline.Point(start: Double(previousAt - startedAt) / 1e9, length: Double(now - previousAt) / 1e9,
                                      from: previous, to: stats)
        point.wireBytesIn = wire.bytesIn - previousWire.bytesIn
        point.wireBytesOut = wire.bytesOut - previousWire.bytesOut
        if point.length > 0 { point.botCPUPercent = cpu.since(previousCPU).total / point.length * 100 }
        let index = timeline.points.count
        timeline.append(point)
        if index < timeline.points.count { server.sample(forPoint: index, wait: waitForServer) }
        previous = stats
        previousAt = now
        previousWire = wire
        previousCPU = cpu
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

    private struct State {
        var last: ServerSample
        var figures: [Int: Figures] = [:]
    }

    private let sampler: ServerSampler
    private let queue = DispatchQueue(label: "wordrooms-bots.server-sampler")
    private let state: Mutex<State>
    /// A sample is being taken: the next interval goes without rather than queue behind it.
    private let busy = Atomic<Bool>(false)

    init(sampler: ServerSampler, start: ServerSample) {
        self.sampler = sampler
        self.state = Mutex(State(last: start))
    }

    /// Samples the server for point `index`, in the background unless `wait`.
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

    /// Every point's figures, once the samples under way are done.
    func takeFigures() -> [Int: Figures] {
        queue.sync {}
        return state.withLock { $0.figures }
    }

    private func take(forPoint index: Int) {
        let sample = sampler.sample()
        state.withLock { state in
            var figures = Figures(residentBytes: sample.residentBytes)
            if let cpu = sample.cpuSeconds, let before = state.last.cpuSeconds, sample.takenAt > state.last.takenAt {
                figures.cpuPercent = (cpu - before) / (Double(sample.takenAt - state.last.takenAt) / 1e9) * 100
            }
            state.figures[index] = figures
            if sample.cpuSeconds != nil { state.last = sample }
        }
    }
}
