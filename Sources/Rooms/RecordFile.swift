#if canImport(Glibc)
import Glibc
#endif

/// The on-disk framing shared by the snapshot and the journal: an 8-byte file header, then records of
/// `length (UInt32 LE) | CRC-32 of payload (UInt32 LE) | payload`.
///
/// A reader stops at the first record that is cut short or fails its checksum and reports what it skipped:
/// a crash mid-write leaves a torn tail, never a failed start.
enum RecordFile {
    static let header: [UInt8] = Array("WRJOURN1".utf8)
    /// Larger claimed lengths are corruption, not records.
    static let maxRecordBytes = 64 << 20

    struct Contents {
        var records: [[UInt8]] = []
        /// A sentence for the log when something was skipped.
        var problem: String?
    }

    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 8)
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: CRC32.checksum(payload).littleEndian) { bytes += $0 }
        bytes += payload
        return bytes
    }

    static func parse(_ bytes: [UInt8], name: String) -> Contents {
        bytes.withUnsafeBytes { bytes in
            let (framed, problem) = scan(bytes, name: name)
            return Contents(records: framed.map { Array(bytes[($0.lowerBound + 8)..<$0.upperBound]) }, problem: problem)
        }
    }

    /// Where each intact record lies in `bytes` (a whole file, header included), length and checksum included,
    /// without copying any: up to the first torn or corrupt record, which `problem` names (for the log, as
    /// `name`).
    static func scan(_ bytes: UnsafeRawBufferPointer, name: String) -> (framed: [Range<Int>], problem: String?) {
        guard bytes.count >= header.count else {
            return ([], bytes.isEmpty ? nil : "\(name) is too short to be a WordRooms file (\(bytes.count) bytes); ignored")
        }
        guard bytes[..<header.count].elementsEqual(header) else {
            return ([], "\(name) does not start with the WordRooms header; ignored")
        }
        var framed: [Range<Int>] = []
        var offset = header.count
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else {
                return (framed, "\(name): skipped a torn record header at byte \(offset) (\(bytes.count - offset) bytes)")
            }
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            guard length <= maxRecordBytes, bytes.count - offset - 8 >= length else {
                return (framed, "\(name): skipped a torn or corrupt record at byte \(offset) (\(bytes.count - offset) bytes to the end)")
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)])
            guard CRC32.checksum(payload.bindMemory(to: UInt8.self)) == checksum else {
                return (framed, "\(name): record at byte \(offset) fails its checksum; skipped it and the \(bytes.count - offset) bytes after it")
            }
            framed.append(offset..<(offset + 8 + length))
            offset += 8 + length
        }
        return (framed, nil)
    }

    /// Calls `body` with the file mapped read-only (empty when it does not exist or is empty): for reading a
    /// large file once without growing the heap by its size.
    static func withMapped<R>(_ path: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0,
              let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        defer { munmap(base, Int(info.st_size)) }
        return body(UnsafeRawBufferPointer(start: base, count: Int(info.st_size)))
    }

    /// Writes all of `bytes` to `fd`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
