/// Packs a patch message's JSON for the room's history (`PatchHistory`): the same few strings make up most of
/// every patch (`{"op":"replace","path":"/scramble/scoreboard/`, `","name":"`), so each of them is kept as two
/// bytes. A busy room's history then holds about twice the patches in the same bytes, which is what lets a
/// resume replay what it missed from a small ring.
///
/// A packed string is the JSON with each dictionary string replaced by `0xFF` and its index; a `0xFF` of the
/// input (never in UTF-8, so never in our JSON) becomes `0xFF 0xFF`. Any bytes unpack to what was packed.
/// General-purpose compression (zlib) would pack a 300-byte patch less well without a preset dictionary and
/// costs several times more per patch, on the path of every move.
enum PatchPacking {
    /// The marker of a dictionary string; never in UTF-8 text.
    static let marker: UInt8 = 0xFF

    /// The strings replaced, chosen from the patches of the game loads: envelope, operations, paths, and the
    /// members of the entries that patches add. At most 255 (index 255 stands for a literal `0xFF`).
    static let dictionary: [[UInt8]] = [
        #"{"type":"patch","seq":"#, #","ops":["#, #"]}"#,
        #"{"op":"replace","path":"/"#, #"{"op":"add","path":"/"#, #"{"op":"remove","path":"/"#,
        #"","value":"#, #","value":"#, "},", "}}",
        "scramble/", "snowman/", "scoreboard/", "scores/", "found/", "chat/", "guesses/", "positions/",
        "members/", "leaderboard/", "history/",
        #"/score""#, #"/rank""#, #"/player""#, #"/name""#, #"/letter""#, #"/connected""#, #"/missed""#,
        #"statusLine""#, #"totalWords""#, #"wrongGuesses""#, #"turnEndsAt""#, #"turn""#, #"phaseEndsAt""#,
        #"{"word":""#, #"","length":"#, #","player":""#, #"","name":""#, #"","points":"#, #","points":"#,
        #"{"id":"#, #","text":""#, #"","at":"#, #","at":"#, #"{"letter":""#, #"","hit":"#, #","system":true"#,
        #","notice":""#, #"{"player":""#, "true", "false", "null", #"":""#, #"",""#,
    ].map { Array($0.utf8) }

    /// The dictionary laid out for `pack`, which runs on every broadcast: every string in one buffer, and for
    /// each first byte the strings that start with it, longest first (`order[bucketStart[b]..<bucketStart[b+1]]`).
    private struct Table {
        var bytes: [UInt8] = []
        var start: [Int] = []
        var length: [Int] = []
        var bucketStart = [Int](repeating: 0, count: 257)
        var order: [UInt8] = []

        init(_ dictionary: [[UInt8]]) {
            for word in dictionary {
                start.append(bytes.count)
                length.append(word.count)
                bytes.append(contentsOf: word)
            }
            let sorted = dictionary.indices.sorted {
                (dictionary[$0][0], dictionary[$1].count) < (dictionary[$1][0], dictionary[$0].count)
            }
            for first in 0..<256 {
                bucketStart[first] = order.count
                order += sorted.filter { Int(dictionary[$0][0]) == first }.map { UInt8($0) }
            }
            bucketStart[256] = order.count
        }
    }

    private static let table = Table(dictionary)

    /// `json` with the dictionary's strings replaced (longest match first, left to right).
    static func pack(_ json: [UInt8]) -> [UInt8] {
        var packed: [UInt8] = []
        packed.reserveCapacity(json.count / 2 + 16)
        let table = Self.table
        json.withUnsafeBufferPointer { input in
            table.bytes.withUnsafeBufferPointer { words in
                table.order.withUnsafeBufferPointer { order in
                    table.bucketStart.withUnsafeBufferPointer { buckets in
                        table.start.withUnsafeBufferPointer { starts in
                            table.length.withUnsafeBufferPointer { lengths in
                                var position = 0
                                let count = input.count
                                scan: while position < count {
                                    let byte = input[position]
                                    if byte == marker {
                                        packed.append(marker)
                                        packed.append(marker)
                                        position += 1
                                        continue
                                    }
                                    for slot in buckets[Int(byte)]..<buckets[Int(byte) + 1] {
                                        let index = Int(order[slot])
                                        let length = lengths[index], start = starts[index]
                                        guard length <= count - position else { continue }
                                        var offset = 1
                                        while offset < length, words[start + offset] == input[position + offset] {
                                            offset += 1
                                        }
                                        guard offset == length else { continue }
                                        packed.append(marker)
                                        packed.append(UInt8(index))
                                        position += length
                                        continue scan
                                    }
                                    packed.append(byte)
                                    position += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return packed
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
