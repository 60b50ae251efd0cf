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

/// Writes `bytes` to `path`, replacing it; why not, if it could not.
func writeFile(_ path: String, _ bytes: [UInt8]) -> String? {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    defer { close(fd) }
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return String(cString: strerror(errno)) }
        written += n
    }
    return nil
}

/// Why `path` cannot be written, checked before the run so that a long run does not end without its report.
/// A file this creates to find out is removed again.
func unwritable(_ path: String) -> String? {
    let existed = access(path, F_OK) == 0
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return String(cString: strerror(errno)) }
    close(fd)
    if !existed { unlink(path) }
    return nil
}

let options = BotOptions.Parsed.options(parsing: BotOptions.parse, usage: BotOptions.usage) { mistake in
    printError("wordrooms-bots: \(mistake)\n\(BotOptions.usage)")
}
for (flag, path) in [("--json", options.jsonPath), ("--html", options.htmlPath)] {
    if let path, let problem = unwritable(path) {
        printError("wordrooms-bots: \(flag): cannot write \(path): \(problem)")
        exit(2)
    }
}

/// Prints the summary, writes the JSON and the HTML page if asked to, and exits with `status`.
func finish(summary: String, json: JSONValue, html: String?, status: Int32) -> Never {
    print(summary)
    var outputs: [(String, [UInt8])] = []
    if let path = options.jsonPath {
        var bytes = JSONWriter().serialize(json)
        bytes.append(UInt8(ascii: "\n"))
        outputs.append((path, bytes))
    }
    if let path = options.htmlPath {
        // `BotOptions.validate` refuses --html for runs without a page.
        if let html { outputs.append((path, Array(html.utf8))) }
    }
    for (path, bytes) in outputs {
        if let problem = writeFile(path, bytes) {
            printError("wordrooms-bots: cannot write \(path): \(problem)")
            exit(1)
        }
    }
    exit(status)
}

do {
    if options.scenario == .avalanche {
        let report = try AvalancheRun.run(options, log: printError)
        finish(summary: report.summary, json: report.json, html: nil, status: report.exitStatus)
    }
    let report = try LoadTest.run(options, log: printError)
    finish(summary: report.summary, json: report.json, html: report.html, status: report.exitStatus)
} catch {
    printError("wordrooms-bots: \(error)")
    exit(1)
}
