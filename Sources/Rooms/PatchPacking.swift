import Glibc

/// Packs a patch message's JSON for the room's history (`PatchHistory`): the same few strings make up most of
/// every patch (`{"op":"replace","path":"/`, `scramble/`, `scoreboard/`, `","name":"`), so each of them is kept as
/// two bytes. A busy room's history then holds about twice the patches in the same bytes, which is what lets a
/// resume replay what it missed from a small ring.
///
/// A packed string is the JSON with each dictionary string replaced by `0xFF` and its index; a `0xFF` of the
/// input (never in UTF-8, so never in our JSON) becomes `0xFF 0xFF`. Any bytes unpack to what was packed.
/// General-purpose compression (zlib) would pack a 300-byte patch less well without a preset dictionary and
/// costs several times more per patch, on the path of every move.
enum PatchPacking {
    /// The marker of a dictionary string; never in UTF-8 text.
    static let marker: UInt8 = 0xFF

    /// The strings replaced: the framework's and the registered games' (`PatchDictionary`). At most 255 (index
    /// 255 stands for a literal `0xFF`).
    static let dictionary: [[UInt8]] = PatchDictionary.strings()

    /// The dictionary laid out for `pack`, which runs on every broadcast, in memory allocated once and never
    /// freed (so `pack` reads it through plain pointers, with no reference counting):
    /// - `bytes`: every string, one after another, from `start[i]` for `length[i]` bytes;
    /// - `order[bucket[k]..<bucket[k+1]]`: the strings of four bytes or more whose first four bytes hash to `k`
    ///   (`bucketKey`), longest first: a derived dictionary has many strings that start alike (`","name":"`,
    ///   `","points":`...), and four bytes tell most of them apart before any comparison;
    /// - `order[bucket[buckets]..<shortEnd]`: the strings of fewer than four bytes, longest first;
    /// - `seconds`: for each first byte, the second bytes any of its strings has (256 bits), so that most
    ///   positions of a patch are passed over after one lookup;
    /// - `prefix[i]`, `prefixMask[i]`: string `i`'s first eight bytes (fewer when shorter) as a little-endian
    ///   word, and the mask of those bytes: one comparison turns down most candidates.
    private final class Table: @unchecked Sendable {
        // @unchecked: written only in `init`, read-only after.
        let bytes: UnsafeMutablePointer<UInt8>
        let start: UnsafeMutablePointer<Int>
        let length: UnsafeMutablePointer<Int>
        let bucket: UnsafeMutablePointer<Int>
        let order: UnsafeMutablePointer<UInt8>
        let seconds: UnsafeMutablePointer<UInt64>
        let prefix: UnsafeMutablePointer<UInt64>
        let prefixMask: UnsafeMutablePointer<UInt64>
        let shortEnd: Int

        init(_ dictionary: [[UInt8]]) {
            let count = dictionary.count
            bytes = .allocate(capacity: dictionary.reduce(0) { $0 + $1.count })
            start = .allocate(capacity: count)
            length = .allocate(capacity: count)
            bucket = .allocate(capacity: Self.buckets + 1)
            order = .allocate(capacity: count)
            seconds = .allocate(capacity: 256 * 4)
            seconds.initialize(repeating: 0, count: 256 * 4)
            prefix = .allocate(capacity: count)
            prefixMask = .allocate(capacity: count)
            var offset = 0
            for (index, word) in dictionary.enumerated() {
                precondition(word.count >= 2, "PatchPacking: a dictionary string shorter than its two bytes")
                var value: UInt64 = 0, mask: UInt64 = 0
                for (position, byte) in word.prefix(8).enumerated() {
                    value |= UInt64(byte) << UInt64(8 * position)
                    mask |= 0xFF << UInt64(8 * position)
                }
                prefix[index] = value
                prefixMask[index] = mask
                start[index] = offset
                length[index] = word.count
                (bytes + offset).initialize(from: word, count: word.count)
                offset += word.count
                seconds[Int(word[0]) * 4 + Int(word[1] >> 6)] |= 1 << UInt64(word[1] & 63)
            }
            let longestFirst = dictionary.indices.sorted { dictionary[$0].count > dictionary[$1].count }
            func key(_ index: Int) -> Int? {
                let word = dictionary[index]
                guard word.count >= 4 else { return nil }
                return Self.bucketKey(word.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
            let keys = dictionary.indices.map(key)
            var filled = 0
            var byKey = [[Int]](repeating: [], count: Self.buckets)
            for index in longestFirst { if let key = keys[index] { byKey[key].append(index) } }
            for key in 0..<Self.buckets {
                bucket[key] = filled
                for index in byKey[key] {
                    order[filled] = UInt8(index)
                    filled += 1
                }
            }
            bucket[Self.buckets] = filled
            for index in longestFirst where keys[index] == nil {
                order[filled] = UInt8(index)
                filled += 1
            }
            shortEnd = filled
        }

        /// Buckets of the strings of four bytes or more; a power of two.
        static let buckets = 1024

        /// The bucket of a string whose first four bytes, as a little-endian word, are `word` (Fibonacci hashing).
        @inline(__always)
        static func bucketKey(_ word: UInt32) -> Int {
            Int((word &* 0x9E37_79B1) >> 22)
        }
    }

    private static let table = Table(dictionary)

    /// `json` with the dictionary's strings replaced (longest match first, left to right).
    static func pack(_ json: [UInt8]) -> [UInt8] {
        let table = Self.table
        let count = json.count
        // At most two bytes for each byte in (a literal marker): written in place, then kept at its size.
        return [UInt8](unsafeUninitializedCapacity: 2 * count) { output, written in
            json.withUnsafeBufferPointer { input in
                guard let base = input.baseAddress else { return }
                let raw = UnsafeRawPointer(base)
                var position = 0, end = 0
                scan: while position < count {
                    let byte = base[position]
                    if byte == marker {
                        output[end] = marker
                        output[end + 1] = marker
                        end += 2
                        position += 1
                        continue
                    }
                    if position + 1 < count {
                        let second = base[position + 1]
                        if table.seconds[Int(byte) * 4 + Int(second >> 6)] & (1 << UInt64(second & 63)) != 0 {
                            // Eight bytes at a time where eight are left.
                            let chunk = position + 8 <= count
                                ? raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) : nil
                            // The strings of four bytes or more that can start here, then the shorter ones.
                            let shorts = table.bucket[Table.buckets]
                            var slots = shorts..<shorts
                            if position + 4 <= count {
                                let key = Table.bucketKey(raw.loadUnaligned(fromByteOffset: position, as: UInt32.self))
                                slots = table.bucket[key]..<table.bucket[key + 1]
                            }
                            for pass in 0..<2 {
                                for slot in pass == 0 ? slots : shorts..<table.shortEnd {
                                    let index = Int(table.order[slot])
                                    let length = table.length[index], start = table.start[index]
                                    guard length <= count - position else { continue }
                                    if let chunk {
                                        guard chunk & table.prefixMask[index] == table.prefix[index],
                                              length <= 8
                                                || memcmp(table.bytes + start + 8, base + position + 8, length - 8) == 0
                                        else { continue }
                                    } else {
                                        guard memcmp(table.bytes + start, base + position, length) == 0
                                        else { continue }
                                    }
                                    output[end] = marker
                                    output[end + 1] = UInt8(index)
                                    end += 2
                                    position += length
                                    continue scan
                                }
                            }
                        }
                    }
                    output[end] = byte
                    end += 1
                    position += 1
                }
                written = end
            }
        }
    }

    /// The JSON that `pack` packed into `packed` (a marker at the very end, which `pack` never writes, is
    /// dropped).
    static func unpack<Bytes: RandomAccessCollection>(_ packed: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var json: [UInt8] = []
        json.reserveCapacity(packed.count * 2)
        var iterator = packed.makeIterator()
        while let byte = iterator.next() {
            guard byte == marker else {
                json.append(byte)
                continue
            }
            guard let index = iterator.next() else { break }
            if index == marker {
                json.append(marker)
            } else if Int(index) < dictionary.count {
                json.append(contentsOf: dictionary[Int(index)])
            }
        }
        return json
    }
}
