import Testing
import WordGames
@testable import Rooms

@Suite struct PatchPackingTests {
    /// Patches as the game loads send them.
    static let patches = [
        #"{"type":"patch","seq":105,"ops":[{"op":"remove","path":"/chat/0"},{"op":"add","path":"/chat/29","value":{"id":90,"player":"p8","name":"Zoë","text":"who found TEARS? \"nice\" 🎉","at":1796449485.5261436}}]}"#,
        #"{"type":"patch","seq":12,"ops":[{"op":"add","path":"/scramble/found/0","value":{"word":"tears","length":5,"player":"p3","name":"Bo","points":2}},{"op":"replace","path":"/scramble/scores/2/score","value":14},{"op":"replace","path":"/scramble/scoreboard/1/player","value":"p3"},{"op":"replace","path":"/scramble/scoreboard/1/name","value":"Bo"}]}"#,
        #"{"type":"patch","seq":3,"ops":[{"op":"replace","path":"/snowman/positions/2/letter","value":"E"},{"op":"add","path":"/snowman/guesses/4","value":{"letter":"E","player":"p1","hit":true,"points":1}},{"op":"replace","path":"/snowman/turn","value":"p2"}]}"#,
        #"{"type":"welcome","state":{"members":[],"locked":false,"host":null}}"#,
        "",
    ].map { Array($0.utf8) }

    @Test(arguments: patches)
    func unpacksToWhatWasPacked(_ json: [UInt8]) {
        #expect(PatchPacking.unpack(PatchPacking.pack(json)) == json)
    }

    @Test func patchesPackToLessThanHalf() {
        for json in Self.patches.prefix(3) {
            let packed = PatchPacking.pack(json)
            #expect(packed.count * 2 < json.count, "\(packed.count) of \(json.count)")
        }
    }

    /// Not JSON, and with the marker byte itself: still lossless.
    @Test func anyBytesRoundTrip() {
        var random = SplitMix64(seed: 5)
        for length in [1, 2, 3, 17, 300] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                #expect(PatchPacking.unpack(PatchPacking.pack(bytes)) == bytes)
            }
        }
        #expect(PatchPacking.pack([0xFF]) == [0xFF, 0xFF])
        #expect(PatchPacking.unpack([0x41, 0xFF]) == [0x41], "a marker cut off at the end is dropped")
    }

    @Test func theDictionaryFitsItsIndexByte() {
        #expect(PatchPacking.dictionary.count < 255)
        #expect(Set(PatchPacking.dictionary).count == PatchPacking.dictionary.count)
        #expect(PatchPacking.dictionary.allSatisfy { !$0.isEmpty && !$0.contains(0xFF) })
    }
}
