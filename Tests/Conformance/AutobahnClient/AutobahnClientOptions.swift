import Runtime

/// What `autobahn-client` is told on its command line: where the fuzzingserver listens, the agent name its
/// report is filed under, and which of its cases to run.
struct AutobahnClientOptions: Equatable {
    /// The fuzzingserver's numeric address (`localhost` is taken as 127.0.0.1: the loops connect to numbers).
    var host = "127.0.0.1"
    var port = 9001
    /// The name the fuzzingserver files results under (the key of its `index.json`).
    var agent = "WordRooms"
    /// 1-based case numbers as the fuzzingserver counts them (`/runCase?case=N`); nil runs them all.
    var cases: [ClosedRange<Int>]?
    /// Seconds a case may take from connecting to its close before the driver drops it and moves on. Longer than
    /// the fuzzingserver's own limit on its slowest cases (480 s in 12.x and 13.x, where it closes and reports
    /// the case failed): the server rules on a slow case itself, and this only ends a case that hangs.
    var caseTimeout: Double = 600

    /// The `Host` header: the address as written in a URL.
    var hostHeader: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether case number `number` is to run.
    func includes(case number: Int) -> Bool {
        cases?.contains { $0.contains(number) } ?? true
    }

    static let usage = """
        Usage: autobahn-client --url ws://HOST:PORT [--agent NAME] [--cases LIST] [--case-timeout SECONDS]

        Runs the cases of an Autobahn|Testsuite fuzzingserver (wstest -m fuzzingserver) against the WordRooms
        client side of RFC 6455: asks /getCaseCount, runs /runCase?case=N&agent=NAME one case at a time,
        echoing every text and binary message, then asks /updateReports?agent=NAME so the server writes its
        report. Tests/Conformance/run-autobahn-client.sh starts the server and judges that report.

          --url ws://HOST:PORT     the fuzzingserver (numeric host or localhost; no path)
          --agent NAME             agent name in the report, letters, digits, '.', '_' and '-' (default WordRooms)
          --cases LIST             case numbers as the server counts them (1 to its case count), e.g. "1-16,45"
                                   (default: all)
          --case-timeout SECONDS   longest a case may take before it is dropped (default 600)
          -h, --help               this text

        Exit status: 0 every case ran and the report was updated, 1 the server could not be reached or refused
        a request, 2 a mistake on the command line, 3 the report was updated but some case had to be dropped.
        """

    typealias Parsed = ParsedCommandLine<AutobahnClientOptions>

    /// Parses the arguments after the program name.
    ///
    /// - Throws: `ArgumentScanner.UsageError` naming the first mistake.
    static func parse(_ arguments: [String]) throws(ArgumentScanner.UsageError) -> Parsed {
        var options = AutobahnClientOptions()
        var scanner = ArgumentScanner(arguments)
        var sawURL = false
        while let argument = try scanner.next() {
            switch argument {
            case .flag("-h"), .flag("--help"):
                return .help
            case .flag("--url"):
                let url = try scanner.value(expected: "ws://HOST:PORT (a numeric host or localhost, no path)",
                                            Self.hostAndPort)
                (options.host, options.port) = url
                sawURL = true
            case .flag("--agent"):
                options.agent = try scanner.value(expected: "letters, digits, '.', '_' or '-'") { name in
                    // The name goes into a query string and the server's report file names as it is.
                    name.isEmpty || !name.utf8.allSatisfy(Self.isAgentByte) ? nil : name
                }
            case .flag("--cases"):
                options.cases = try scanner.value(expected: "case numbers and ranges such as \"1-16,45\"",
                                                  Self.caseList)
            case .flag("--case-timeout"):
                options.caseTimeout = try scanner.number(in: 0...86_400, exclusiveLower: true)
            default:
                throw scanner.unknownOption(hint: " (see --help)")
            }
        }
        guard sawURL else { throw ArgumentScanner.UsageError(description: "--url ws://HOST:PORT is required") }
        return .run(options)
    }

    /// `ws://HOST:PORT` (an optional trailing `/`) as host and port; IPv6 hosts go in brackets.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard text.hasPrefix("ws://") else { return nil }
        var rest = Substring(text.dropFirst("ws://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), rest[close...].hasPrefix("]:") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            portText = rest[rest.index(close, offsetBy: 2)...]
        } else {
            guard let colon = rest.firstIndex(of: ":") else { return nil }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard let port = Int(portText), (1...65535).contains(port) else { return nil }
        if host == "localhost" { return ("127.0.0.1", port) }
        let isIPv4 = host.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && host.split(separator: ".").allSatisfy { UInt8($0) != nil }
        let isIPv6 = host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        return isIPv4 || isIPv6 ? (String(host), port) : nil
    }

    /// `"1-16,45"` as ranges of case numbers, each at least 1.
    static func caseList(_ text: String) -> [ClosedRange<Int>]? {
        var ranges: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let lower = Int(bounds[0]), lower >= 1 else { return nil }
            let upper = bounds.count == 2 ? Int(bounds[1]) : lower
            guard let upper, upper >= lower else { return nil }
            ranges.append(lower...upper)
        }
        return ranges
    }

    private static func isAgentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
