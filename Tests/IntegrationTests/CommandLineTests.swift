import Foundation
import Testing

/// The `wordrooms` executable as an operator meets it: the start line, help, and clear errors for bad input.
@Suite struct CommandLineTests {
    /// The built executable, next to the test bundle in the build directory.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        let candidate = directory.appendingPathComponent("wordrooms")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("wordrooms")
    }()

    func run(_ arguments: [String], untilLine: Bool = false) throws -> (status: Int32, output: String, errors: String) {
        let process = try ChildProcess(executable: Self.executable.path, arguments: arguments)
        if untilLine {
            var line = process.readFirstLine()
            process.signal(SIGINT)
            // Everything it printed before it stopped: the start lines come in one write, before SIGINT is
            // looked at, so the rest of them is here too.
            line.append(process.output.readDataToEndOfFile())
            let status = process.waitForExit()
            return (status, String(decoding: line, as: UTF8.self),
                    String(decoding: process.errors.readDataToEndOfFile(), as: UTF8.self))
        }
        // Both pipes are drained before the wait, so a child with more to say than a pipe holds never blocks.
        let output = process.output.readDataToEndOfFile()
        let errors = process.errors.readDataToEndOfFile()
        return (process.waitForExit(), String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    @Test func printsOneLineWithTheURLAndStopsOnSIGINT() throws {
        let result = try run(["--host", "127.0.0.1", "--port", "0"], untilLine: true)
        #expect(result.output.hasPrefix("WordRooms is running at http://127.0.0.1:"))
        #expect(!result.output.contains(":0/"))
        #expect(result.status == 0)
    }

    /// Listening on every address, the start line is followed by a `Network:` line for each address friends on
    /// the same network can open, the ones `hostname -I` lists (it too leaves out loopback and link-local). No
    /// traffic goes to them: the test only reads the lines.
    @Test func listeningEverywhereListsTheNetworkAddresses() throws {
        let result = try run(["--host", "::", "--port", "0"], untilLine: true)
        let lines = result.output.split(separator: "\n").map(String.init)
        let first = try #require(lines.first)
        #expect(first.hasPrefix("WordRooms is running at http://localhost:"))
        let port = try #require(first.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) })
        let network = lines.dropFirst().filter { $0.hasPrefix("Network: ") }
            .map { String($0.dropFirst("Network: ".count)) }
        for url in network {
            #expect(url.hasPrefix("http://") && url.hasSuffix(":\(port)/"), "\(url)")
            #expect(!url.contains("127.0.0.1") && !url.contains("[::1]") && !url.lowercased().contains("[fe80"))
        }
        let hostname = try ChildProcess(executable: "/bin/hostname", arguments: ["-I"])
        let listedOutput = hostname.output.readDataToEndOfFile()
        hostname.waitForExit()
        let listed = String(decoding: listedOutput, as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let printed = network.map { url in
            url.dropFirst("http://".count).dropLast(":\(port)/".count)
                .trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        }
        #expect(Set(printed) == Set(listed), "the server and hostname -I agree on the machine's addresses")
    }

    @Test(arguments: [["--host", "127.0.0.1"], ["--host", "::", "--public-url", "https://play.example.com/"]])
    func aSpecificHostOrAPublicURLListsNoNetworkAddresses(_ arguments: [String]) throws {
        let result = try run(arguments + ["--port", "0"], untilLine: true)
        #expect(result.output.hasPrefix("WordRooms is running at "))
        #expect(!result.output.contains("Network:"))
    }

    /// With `SO_REUSEPORT` on every listener a second server joined the port, and the kernel split new
    /// connections between the two processes (half the joins of existing rooms found no room).
    @Test func aSecondServerOnATakenPortExitsWithStatus1AndSaysWhy() throws {
        let first = try ChildProcess(executable: Self.executable.path,
                                     arguments: ["--host", "::", "--port", "0", "--threads", "2"])
        defer {
            first.signal(SIGINT)
            first.waitForExit()
        }
        let line = String(decoding: first.readFirstLine(), as: UTF8.self)
        let port = try #require(line.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) },
                                "no port in the start line: \(line)")
        // The same dual-stack address, and IPv4 loopback, which the dual-stack listener also covers.
        for host in ["::", "127.0.0.1"] {
            let second = try run(["--host", host, "--port", String(port)])
            #expect(second.status == 1, "a second server on \(host) port \(port) started")
            #expect(second.errors.contains("cannot listen on \(host) port \(port): port \(port) on \(host) is taken by another process"),
                    "\(second.errors)")
            #expect(!second.output.contains("WordRooms is running"))
        }
    }

    @Test func badFlagExitsWithStatus2AndSaysWhy() throws {
        let result = try run(["--port", "eighty"])
        #expect(result.status == 2)
        #expect(result.errors.contains("--port needs a whole number from 0 to 65535, not 'eighty'"))
    }

    @Test func helpListsTheFlags() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        for flag in ["--host", "--port", "--threads", "--web", "--max-message-bytes", "--words"] {
            #expect(result.output.contains(flag))
        }
    }

    @Test func customWordListErrorsNameTheirLines() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("words-\(UUID().uuidString).txt")
        try "snow\nwinter\nice\nsled9\n# a comment\nwinter\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(["--port", "0", "--words", file.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("line 3"))
        #expect(result.errors.contains("line 4"))
        #expect(result.errors.contains("line 6"))
    }

    @Test func missingWebDirectoryIsAClearError() throws {
        let result = try run(["--port", "0", "--web", "/nonexistent/web"])
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot serve the web client from '/nonexistent/web'"))
    }
}
