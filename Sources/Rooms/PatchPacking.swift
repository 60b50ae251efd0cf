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

    /// For each first byte, the indices of the dictionary strings that start with it, longest first.
    private static let candidates: [[UInt8]] = {
        var table = [[UInt8]](repeating: [], count: 256)
        for index in dictionary.indices.sorted(by: { dictionary[$0].count > dictionary[$1].count }) {
            table[Int(dictionary[index][0])].append(UInt8(index))
        }
        return table
    }()

    /// `json` with the dictionary's strings replaced (longest match first, left to right).
    static func pack(_ json: [UInt8]) -> [UInt8] {
        var packed: [UInt8] = []
        packed.reserveCapacity(json.count / 2 + 16)
        json.withUnsafeBufferPointer { input in
            var position = 0
            let count = input.count
            while position < count {
                let byte = input[position]
                if byte == marker {
                    packed.append(marker)
                    packed.append(marker)
                    position += 1
                    continue
                }
                var matched = false
                for index in candidates[Int(byte)] {
                    let word = dictionary[Int(index)]
                    guard word.count <= count - position else { continue }
                    let equal = word.withUnsafeBufferPointer { word in
                        var offset = 1
                        while offset < word.count, word[offset] == input[position + offset] { offset += 1 }
                        return offset == word.count
                    }
                    guard equal else { continue }
                    packed.append(marker)
                    packed.append(index)
                    position += word.count
                    matched = true
                    break
                }
                if !matched {
                    packed.append(byte)
                    position += 1
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
