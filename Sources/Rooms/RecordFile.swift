#if canImport(Glibc)
import Glibc
#endif

/// The on-disk framing shared by the snapshot and the journal: an 8-byte file header, then records of
/// `length (UInt32 LE) | CRC-32 of payload (UInt32 LE) | payload`.
///
/// A reader that meets a record cut short or failing its checksum does not stop there: it looks for the next
/// whole record (a length that fits, a JSON object, a checksum that holds) and reads on (`scan`). One flipped bit
/// used to lose every record after it (a journal of 20 rooms restored none). No record marker (and no new file
/// format) is needed for that: payloads are JSON text, which has no byte below 0x20, so a length read from inside
/// a payload claims at least 512 MiB, more than `maxRecordBytes`, and is refused without computing a checksum;
/// only the binary 8-byte prefixes of records are ever checksummed.
enum RecordFile {
    static let header: [UInt8] = Array("WRJOURN1".utf8)
    /// Larger claimed lengths are corruption, not records.
    static let maxRecordBytes = 64 << 20
    /// Length and checksum in front of each payload.
    static let prefixBytes = 8

    struct Contents {
        var records: [[UInt8]] = []
        /// A sentence for the log when something was skipped.
        var problem: String?
    }

    /// What `scan` found in a file.
    struct Scan {
        /// Each whole record, its length and checksum included, in file order.
        var framed: [Range<Int>] = []
        /// Whether the file starts with `header`.
        var headerIntact = true
        /// Stretches between whole records that are not records: each one is at least one damaged record.
        var damaged: [Range<Int>] = []
        /// Bytes at the end that hold no whole record: a write cut short by a crash (the journal's normal torn
        /// tail), or damage at the end.
        var tail: Range<Int>?
        /// Where the last whole record (or the header) ends: the length to cut the file back to.
        var goodLength = 0

        /// Whether the file holds anything besides its header and whole records, a torn tail aside: then it
        /// is set aside rather than written to again.
        var isDamaged: Bool { !headerIntact || !damaged.isEmpty }
        var damagedBytes: Int { damaged.reduce(0) { $0 + $1.count } }

        /// One line for the log, or nil when the file is whole.
        func problem(name: String, fileBytes: Int) -> String? {
            var parts: [String] = []
            if !headerIntact {
                parts.append("does not start with the WordRooms header")
            }
            if let first = damaged.first {
                let records = damaged.count == 1 ? "1 damaged record" : "\(damaged.count) damaged records"
                parts.append("skipped \(records) (\(damagedBytes) bytes from byte \(first.lowerBound))")
            }
            if let tail {
                parts.append("skipped a torn record at the end (\(tail.count) bytes at byte \(tail.lowerBound))")
            }
            guard !parts.isEmpty else { return nil }
            let kept = framed.count == 1 ? "1 whole record" : "\(framed.count) whole records"
            return "\(name) (\(fileBytes) bytes) " + parts.joined(separator: "; ") + "; read the \(kept) in it"
        }
    }

    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + prefixBytes)
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: CRC32.checksum(payload).littleEndian) { bytes += $0 }
        bytes += payload
        return bytes
    }

    static func parse(_ bytes: [UInt8], name: String) -> Contents {
        bytes.withUnsafeBytes { bytes in
            let scanned = scan(bytes)
            return Contents(records: scanned.framed.map { Array(bytes[($0.lowerBound + prefixBytes)..<$0.upperBound]) },
                            problem: scanned.problem(name: name, fileBytes: bytes.count))
        }
    }

    /// Where each whole record lies in `bytes` (a whole file, header included), length and checksum included,
    /// without copying any; past a damaged stretch the scan goes on from the next whole record. A damaged header
    /// does not hide the records after it.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> Scan {
        var result = Scan()
        guard !bytes.isEmpty else { return result }
        result.headerIntact = bytes.count >= header.count && bytes[..<header.count].elementsEqual(header)
        var offset = result.headerIntact ? header.count : 0
        result.goodLength = offset
        while offset < bytes.count {
            if let end = recordEnd(in: bytes, at: offset) {
                result.framed.append(offset..<end)
                offset = end
                result.goodLength = end
                continue
            }
            let next = nextRecord(in: bytes, after: offset)
            if next == bytes.count {
                // Nothing whole after it. A file whose header is damaged and that holds no record is garbage as
                // a whole, not a torn tail.
                if result.headerIntact || !result.framed.isEmpty {
                    result.tail = offset..<bytes.count
                } else {
                    result.damaged.append(offset..<bytes.count)
                }
                break
            }
            // A damaged header in front of whole records is the header's damage (`headerIntact`), not a record's.
            if !(offset == 0 && next == header.count) {
                result.damaged.append(offset..<next)
            }
            offset = next
        }
        return result
    }

    /// Where the first whole record after `offset` starts, or `bytes.count`. Only offsets 8 bytes before a `{`
    /// can start one, and `memchr` finds those: a byte-by-byte walk took seconds over 32 MiB of garbage.
    private static func nextRecord(in bytes: UnsafeRawBufferPointer, after offset: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var candidate = offset + 1
        while candidate + prefixBytes < bytes.count {
            let from = candidate + prefixBytes
            guard let brace = memchr(base + from, Int32(UInt8(ascii: "{")), bytes.count - from) else { break }
            candidate = UnsafeRawPointer(brace) - base - prefixBytes
            if recordEnd(in: bytes, at: candidate) != nil { return candidate }
            candidate += 1
        }
        return bytes.count
    }

    /// The end of the record starting at `offset` when one is there whole: a length that fits, a payload that
    /// starts and ends like a JSON object, and a checksum that holds. Zeros, as a crash can leave at the end of
    /// a file, would otherwise pass as empty records (the CRC of nothing is 0); and in a stretch of random bytes
    /// the two braces leave one candidate in 16 million to checksum, not one in 64.
    private static func recordEnd(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard bytes.count - offset > prefixBytes else { return nil }
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        guard length > 1, length <= maxRecordBytes, bytes.count - offset - prefixBytes >= length,
              bytes[offset + prefixBytes] == UInt8(ascii: "{"),
              bytes[offset + prefixBytes + length - 1] == UInt8(ascii: "}") else { return nil }
        let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + prefixBytes)..<(offset + prefixBytes + length)])
        guard CRC32.checksum(payload.bindMemory(to: UInt8.self)) == checksum else { return nil }
        return offset + prefixBytes + length
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
}
