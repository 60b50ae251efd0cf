#if canImport(Glibc)
import Glibc
#endif
import Runtime
import Transport

// The test driver of Tests/Conformance/run-autobahn-client.sh: the WordRooms client side of RFC 6455 (the one the
// load tester uses) against an Autobahn|Testsuite fuzzingserver. See AutobahnClientOptions.usage.

/// Writes `text` and a newline to standard error, unbuffered: progress must show while the run goes on.
func printError(_ text: String) {
    var line = "[autobahn-client] " + text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

let options = AutobahnClientOptions.Parsed.options(parsing: AutobahnClientOptions.parse,
                                                   usage: AutobahnClientOptions.usage) { mistake in
    printError("\(mistake)\n" + (AutobahnClientOptions.usage.split(separator: "\n").first ?? ""))
}

let group: EventLoopGroup
do {
    // One loop: the cases run one after another. The transport's defaults, as the load tester starts from: the
    // 16 MiB echoes fit because a client's output allowance grows by its largest message when it opens.
    group = try EventLoopGroup(clientThreads: 1)
} catch {
    printError("cannot create the event loop: \(error)")
    exit(1)
}
group.start()

/// Every case ran but some had to be dropped: the report exists, and still the run is not a pass.
let droppedStatus: Int32 = 3
let status: Int32
do {
    let dropped = try FuzzingRun(options: options, loop: group.loops[0], log: printError).run()
    if dropped.isEmpty {
        status = 0
    } else {
        printError("dropped \(dropped.count) case(s) that did not close in time: "
                   + dropped.map(String.init).joined(separator: ", "))
        status = droppedStatus
    }
} catch {
    printError("ERROR: \(error)")
    status = 1
}
group.shutdown()
exit(status)
