import Testing
@testable import Rooms

/// Reading a journal or snapshot around damage: a damaged record costs that record, never the ones after it.
@Suite struct RecordFileTests {
    /// A file of `count` records, `{"n":INDEX,...}` padded to about 100 bytes, and where each record starts.
    static func file(records count: Int) -> (bytes: [UInt8], starts: [Int]) {
        var bytes = RecordFile.header
        var starts: [Int] = []
        for index in 0..<count {
            starts.append(bytes.count)
            bytes += RecordFile.frame(Array("{\"n\":\(index),\"pad\":\"\(String(repeating: "x", count: 80))\"}".utf8))
        }
        return (bytes, starts)
    }

    /// The index in each whole record read, in order.
    static func indices(_ bytes: [UInt8]) -> [Int] {
        RecordFile.parse(bytes, name: "rooms.journal").records.map { record in
            let text = String(decoding: record, as: UTF8.self)
            return Int(text.dropFirst(5).prefix { $0.isNumber })!
        }
    }

    static func scan(_ bytes: [UInt8]) -> RecordFile.Scan {
        bytes.withUnsafeBytes { RecordFile.scan($0) }
    }

    @Test func aWholeFileHasNoProblem() {
        let (bytes, _) = Self.file(records: 20)
        let scanned = Self.scan(bytes)
        #expect(scanned.framed.count == 20)
        #expect(!scanned.isDamaged && scanned.tail == nil)
        #expect(scanned.goodLength == bytes.count)
        #expect(scanned.problem(name: "rooms.journal", fileBytes: bytes.count) == nil)
    }

    /// Every bit of the first record flipped in turn (length, checksum, payload): the other 19 are read.
    @Test func aFlippedBitInTheFirstRecordCostsOnlyThatRecord() {
        let (bytes, starts) = Self.file(records: 20)
        for bit in 0..<((starts[1] - starts[0]) * 8) {
            var damaged = bytes
            damaged[starts[0] + bit / 8] ^= UInt8(1 << (bit % 8))
            let read = Self.indices(damaged)
            #expect(read == Array(1..<20), "bit \(bit)")
            let scanned = Self.scan(damaged)
            #expect(scanned.damaged == [starts[0]..<starts[1]], "bit \(bit)")
            #expect(scanned.isDamaged)
        }
    }

    /// A first record cut short with more records written after it (the old writer went on after a short write).
    @Test func aTornFirstRecordIsSkippedAndTheRestRead() {
        let (whole, starts) = Self.file(records: 5)
        let torn = Array(whole[..<(starts[0] + 40)]) + whole[starts[1]...]
        #expect(Self.indices(torn) == [1, 2, 3, 4])
        let problem = Self.scan(torn).problem(name: "rooms.journal", fileBytes: torn.count)
        #expect(problem == "rooms.journal (\(torn.count) bytes) skipped 1 damaged record (40 bytes from byte 8); read the 4 whole records in it")
    }

    @Test func aDamagedHeaderHidesNoRecord() {
        var (bytes, _) = Self.file(records: 20)
        bytes.replaceSubrange(0..<4, with: [0, 0xFF, 0x13, 0x37])
        #expect(Self.indices(bytes) == Array(0..<20))
        let scanned = Self.scan(bytes)
        #expect(!scanned.headerIntact && scanned.isDamaged)
        #expect(scanned.damaged.isEmpty, "the header is not a record")
        #expect(scanned.problem(name: "rooms.journal", fileBytes: bytes.count)
                == "rooms.journal (\(bytes.count) bytes) does not start with the WordRooms header; read the 20 whole records in it")
        // No header at all, straight into records.
        #expect(Self.indices(Array(bytes[8...])) == Array(0..<20))
    }

    @Test func aCrashTornTailIsNotDamage() {
        let (whole, starts) = Self.file(records: 3)
        for cut in [starts[2] + 3, starts[2] + 8, starts[2] + 9, whole.count - 1] {
            let scanned = Self.scan(Array(whole[..<cut]))
            #expect(scanned.framed.count == 2)
            #expect(scanned.tail == starts[2]..<cut)
            #expect(!scanned.isDamaged)
            #expect(scanned.goodLength == starts[2])
        }
        // Zeros, as a crash can leave after the last write, are not empty records (the CRC of nothing is 0).
        let zeros = Self.scan(whole + [UInt8](repeating: 0, count: 4096))
        #expect(zeros.framed.count == 3 && zeros.tail == whole.count..<(whole.count + 4096))
    }

    @Test func garbageIsDamagedAsAWhole() {
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let scanned = Self.scan(garbage)
        #expect(scanned.framed.isEmpty)
        #expect(scanned.isDamaged)
        #expect(scanned.damagedBytes == 4096)
        #expect(Self.scan(Array("not a snapshot".utf8)).isDamaged)
    }

    /// Damage in the middle and at the end, both reported on one line.
    @Test func damageInTheMiddleAndATornTail() {
        let (whole, starts) = Self.file(records: 10)
        var bytes = whole
        bytes[starts[4] + 20] ^= 0x40
        bytes[starts[5] + 20] ^= 0x40
        bytes = Array(bytes[..<(whole.count - 10)])
        #expect(Self.indices(bytes) == [0, 1, 2, 3, 6, 7, 8])
        let scanned = Self.scan(bytes)
        #expect(scanned.damaged == [starts[4]..<starts[6]])
        #expect(scanned.tail == starts[9]..<bytes.count)
    }
}
