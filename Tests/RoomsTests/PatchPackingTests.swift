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

/// The dictionary's game part, derived from the registered games' views as their bots play.
@Suite struct PatchDictionaryTests {
    private func has(_ string: String) -> Bool {
        PatchPacking.dictionary.contains(Array(string.utf8))
    }

    @Test func everyRegisteredGameHasItsStatePathAndItsViewsNames() {
        for game in GameCatalog.games {
            #expect(has("\(game.id)/"), "\(game.id)")
            #expect(PatchDictionary.gameStrings(game).count > 10, "\(game.id): names from its sample views")
        }
        // Names found only in lists a fresh game leaves empty: the sample games fill them.
        for string in ["guesses/", "positions/", #"{"letter":""#, #"","hit":"#, "found/", #"{"word":""#,
                       #"","length":"#, "scoreboard/", #"/score""#, #"/rank""#, #"statusLine""#] {
            #expect(has(string), "\(string)")
        }
    }

    @Test func theFrameworksStringsComeFirstAndEachStringOnce() {
        let framework = PatchDictionary.framework.filter { $0.utf8.count >= 3 }.map { Array($0.utf8) }
        #expect(Array(PatchPacking.dictionary.prefix(framework.count)) == framework)
        #expect(Set(PatchPacking.dictionary).count == PatchPacking.dictionary.count)
    }

    /// Packed bytes stay in memory, but a dictionary that changed between two derivations would unpack a
    /// room's history wrongly: it depends on nothing but the build.
    @Test func derivingAgainGivesTheSameDictionary() {
        #expect(PatchDictionary.strings() == PatchPacking.dictionary)
    }

    /// The game loads' patches pack at least as small as with the hand-written dictionary this one replaced (to
    /// 51%, 28% and 25% of their bytes; derived: 48%, 26%, 25%): a size, not a time.
    @Test(arguments: zip(PatchPackingTests.patches.prefix(3), [0.5, 0.3, 0.27]))
    func gamePatchesPackSmall(_ json: [UInt8], _ most: Double) {
        let packed = PatchPacking.pack(json)
        #expect(Double(packed.count) <= most * Double(json.count), "\(packed.count) of \(json.count)")
        #expect(PatchPacking.unpack(packed) == json)
    }
}
