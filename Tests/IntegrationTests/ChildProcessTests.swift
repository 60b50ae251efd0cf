import Foundation
import Testing

/// The test harness's process starter: what a child gets from the test process, and how it ends.
@Suite struct ChildProcessTests {
    /// The child sees only its standard descriptors, however many the test process holds open.
    @Test func aChildInheritsNoOtherDescriptor() throws {
        let held = (0..<8).map { _ in socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }
        defer { for fd in held { close(fd) } }
        #expect(held.allSatisfy { $0 >= 3 })
        let child = try ChildProcess(executable: "/bin/ls", arguments: ["/proc/self/fd"])
        let listed = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").compactMap { Int($0) }.sorted()
        #expect(child.waitForExit() == 0)
        // 0-2, and the descriptor `ls` itself opened to read the directory.
        #expect(listed == [0, 1, 2, 3], "\(listed)")
    }

    @Test func reportsTheExitStatusAndTheSignalAsAShellDoes() throws {
        let failing = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo oops >&2; exit 3"])
        #expect(failing.waitForExit() == 3)
        #expect(String(decoding: failing.errors.readDataToEndOfFile(), as: UTF8.self) == "oops\n")
        let sleeping = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
        sleeping.signal(SIGTERM)
        #expect(sleeping.waitForExit() == 128 + SIGTERM)
        #expect(sleeping.waitForExit() == 128 + SIGTERM, "a second wait gives the same status")
    }

    @Test func aMissingExecutableIsAnError() {
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess(executable: "/nonexistent/wordrooms", arguments: [])
        }
    }
}
