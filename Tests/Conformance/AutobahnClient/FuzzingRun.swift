import Runtime
import Transport

/// The fuzzingserver's protocol for a client under test, one connection at a time: `/getCaseCount`, then
/// `/runCase?case=N&agent=NAME` for each case, then `/updateReports?agent=NAME`, after which the server writes
/// its report. Blocks the calling thread (the process's main thread); the connections live on `loop`.
struct FuzzingRun {
    /// Why the run could not go on.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The largest message the fuzzingserver sends: 16 MiB (9.1.6, 9.2.6), the cap the server's run uses too.
    static let maxMessageBytes = 16 << 20
    /// Seconds `/getCaseCount` and `/updateReports` may take: both are one short exchange.
    static let requestSeconds = 30.0
    /// Seconds to wait for the loop to report the end of a connection the driver dropped.
    static let abortGraceSeconds = 10.0
    /// A progress line after every this many cases.
    static let progressEvery = 25

    let options: AutobahnClientOptions
    let loop: EventLoop
    let log: (String) -> Void

    /// Runs every case selected and updates the reports.
    ///
    /// - Returns: The numbers of the cases that had to be dropped (they did not close in time).
    /// - Throws: `Failure` when the server cannot be reached or a request does not end as expected.
    func run() throws(Failure) -> [Int] {
        let startedAt = MonotonicClock.seconds()
        let count = try caseCount()
        let selected = (0..<count).map { $0 + 1 }.filter { options.includes(case: $0) }
        log("\(count) cases on the server; running \(selected.count) as agent \(options.agent)")
        var dropped: [Int] = []
        for (index, number) in selected.enumerated() {
            let path = "/runCase?case=\(number)&agent=\(options.agent)"
            let connection = open(path)
            switch connection.waitForEnd(seconds: options.caseTimeout) {
            case .closed?:
                break
            case .failed(let reason)?:
                // The fuzzingserver accepts every case connection; not reaching it means it is gone.
                throw Failure(description: "case \(number): cannot connect: \(reason)")
            case nil:
                log("case \(number) did not close within \(Self.format(options.caseTimeout)) s; dropping it")
                dropped.append(number)
                connection.abort()
                guard connection.waitForEnd(seconds: Self.abortGraceSeconds) != nil else {
                    throw Failure(description: "case \(number): the connection did not end after it was dropped")
                }
            }
            let done = index + 1
            if done % Self.progressEvery == 0 || done == selected.count {
                log("\(done)/\(selected.count) cases, \(Self.format(MonotonicClock.seconds() - startedAt)) s")
            }
        }
        let update = open("/updateReports?agent=\(options.agent)")
        switch update.waitForEnd(seconds: Self.requestSeconds) {
        case .closed?:
            break
        case .failed(let reason)?:
            throw Failure(description: "/updateReports: cannot connect: \(reason)")
        case nil:
            update.abort()
            throw Failure(description: "/updateReports did not close within \(Self.format(Self.requestSeconds)) s")
        }
        return dropped
    }

    /// Asks `/getCaseCount`: the server answers with the count as a text message and closes.
    private func caseCount() throws(Failure) -> Int {
        let request = open("/getCaseCount")
        let target = "ws://\(options.hostHeader)/getCaseCount"
        switch request.waitForEnd(seconds: Self.requestSeconds) {
        case .failed(let reason)?:
            throw Failure(description: "cannot connect to \(target): \(reason)")
        case nil:
            request.abort()
            throw Failure(description: "\(target) did not answer within \(Self.format(Self.requestSeconds)) s")
        case .closed?:
            guard let text = request.firstText, let count = Int(text), count >= 0 else {
                let got = request.firstText.map { "'\($0)'" } ?? "no text message"
                throw Failure(description: "\(target) sent no case count (got \(got))")
            }
            return count
        }
    }

    /// Opens one connection to `path` on the fuzzingserver. The one place the driver connects: options of the
    /// client's opening handshake (such as an extension offer) belong here.
    private func open(_ path: String) -> FuzzingConnection {
        let connection = FuzzingConnection(maxMessageBytes: Self.maxMessageBytes)
        // permessage-deflate offered as browsers do (`client_max_window_bits` bare), so that sections 12 and 13
        // run: the fuzzingserver accepts it with the parameters each case tests. zlib's fastest level: an echo.
        loop.connect(address: options.host, port: options.port, path: path, hostHeader: options.hostHeader,
                     endpoint: connection, compression: ClientCompression(level: 1))
        return connection
    }

    private static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
