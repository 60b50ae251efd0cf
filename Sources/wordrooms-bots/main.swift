#if canImport(Glibc)
import Glibc
#endif
import Bots
import JSON

/// Writes `text` and a newline to standard error, unbuffered: progress must show while the run goes on.
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

let options = BotOptions.Parsed.options(parsing: BotOptions.parse, usage: BotOptions.usage) { mistake in
    printError("wordrooms-bots: \(mistake)\n\(BotOptions.usage)")
}

/// Prints the summary, writes the JSON if asked to, and exits with `status`.
func finish(summary: String, json: JSONValue, status: Int32) -> Never {
    print(summary)
    if let path = options.jsonPath {
        var bytes = JSONWriter().serialize(json)
        bytes.append(UInt8(ascii: "\n"))
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 || bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) != bytes.count {
            printError("wordrooms-bots: cannot write \(path): \(String(cString: strerror(errno)))")
            exit(1)
        }
        close(fd)
    }
    exit(status)
}

do {
    if options.scenario == .avalanche {
        let report = try AvalancheRun.run(options, log: printError)
        finish(summary: report.summary, json: report.json, status: report.exitStatus)
    }
    let report = try LoadTest.run(options, log: printError)
    finish(summary: report.summary, json: report.json, status: report.exitStatus)
} catch {
    printError("wordrooms-bots: \(error)")
    exit(1)
}
