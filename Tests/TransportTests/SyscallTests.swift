#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Transport

@Suite struct SyscallTests {
    /// A new file in /tmp holding `bytes`; the caller removes it.
    private func temporaryFile(_ bytes: [UInt8]) -> String? {
        var template = Array("/tmp/wordrooms-syscall-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return nil }
        let path = String(cString: template)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return written == bytes.count ? path : nil
    }

    @Test func readFileReturnsTheWholeFile() throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let path = try #require(temporaryFile(bytes))
        defer { unlink(path) }
        let read = try Syscall.readFile(path, limit: 20_000)
        #expect(read == bytes)
    }

    @Test func readFileStopsAtTheLimit() throws {
        let path = try #require(temporaryFile(Array("hello, world".utf8)))
        defer { unlink(path) }
        let read = try Syscall.readFile(path, limit: 5)
        #expect(read == Array("hello".utf8))
    }

    @Test func readFileOfAProcEntryReadsPastItsZeroSize() throws {
        // /proc files report st_size 0; they are read to their end, not to their size.
        let statm = try Syscall.readFile("/proc/self/statm", limit: 128)
        #expect(statm.split(separator: UInt8(ascii: " ")).count >= 2)
        #expect(ProcessFiles.read("/proc/self/statm") != nil)
    }

    @Test func aMissingFileThrowsNamingOpenAndENOENT() {
        #expect {
            _ = try Syscall.readFile("/tmp/wordrooms-no-such-file-\(getpid())", limit: 16)
        } throws: { error in
            (error as? SystemError)?.call == "open" && (error as? SystemError)?.errno == ENOENT
        }
        #expect(ProcessFiles.read("/tmp/wordrooms-no-such-file-\(getpid())") == nil)
    }
}
