import Testing
@testable import WordGames

@Suite struct ScrambleBotTests {
    private static let lexicon = Lexicon(words: ["rat", "tar", "art", "star", "rats", "tars", "arts", "stars", "tsar"])
    private static let roomWords = ["rat", "tar", "art", "star", "rats", "tars", "arts", "tsar"]

    private func bot() throws -> ScrambleBot {
        let lists = WordLists(secrets: try WordList(["stars"]), roots: ["stars"], lexicon: Self.lexicon)
        return ScrambleBot(words: BotWords(lists: lists))
    }

    /// A round of STARS running, with `found` (newest first) found so far.
    private func round(found: [String] = [], phase: String = "playing") -> FakeGameState {
        FakeGameState(strings: ["phase": phase, "root": "STARS"], ints: ["minWordLength": 3, "matchNumber": 2],
                      lists: ["found": found.map { ["word": $0.uppercased(), "player": "p9"] }])
    }

    @Test func spellsEveryWordOfTheRootOnceAndSkipsFoundOnes() throws {
        var bot = try bot()
        var random = SplitMix64(seed: 5)
        var state = round(found: ["tar"])
        var sent: [String] = []
        while case .play(let chosen) = bot.choose(in: state, you: "p1", waiting: 0, invalidShare: 0, using: &random) {
            guard case .word(let word) = chosen.move else {
                Issue.record("not a word: \(chosen.move)")
                break
            }
            sent.append(word)
            #expect(chosen.shownAs?.map { $0.value } == [word])
            #expect(chosen.expectedRefusals == ["already-found", "round-not-running"])
            #expect(!chosen.invalidOnPurpose)
            // "arts" is found (by someone else, or by this bot) after the bot's first word: never sent again.
            if sent.count == 1 { state = round(found: ["arts", "tar"]) }
        }
        #expect(Set(sent).count == sent.count, "no word twice: \(sent)")
        #expect(!sent.contains("tar") && !sent.contains("stars"), "neither found words nor the root")
        #expect(sent.allSatisfy(Self.roomWords.contains))
        #expect(!sent.dropFirst().contains("arts"))
        #expect(Set(sent).union(["tar", "arts"]) == Set(Self.roomWords), "every word not found was sent")
        guard case .noMoveLeft = bot.choose(in: state, you: "p1", waiting: 0, invalidShare: 0, using: &random) else {
            Issue.record("a word left after every word was sent")
            return
        }
    }

    @Test(arguments: [0.0, 0.3, 1.0])
    func makesNonWordsAtTheAskedShare(share: Double) throws {
        var bot = try bot()
        var random = SplitMix64(seed: 8)
        let state = round()
        var invalid = 0
        let draws = 2000
        for _ in 0..<draws {
            switch bot.choose(in: state, you: "p1", waiting: 0, invalidShare: share, using: &random) {
            case .play(let chosen) where chosen.invalidOnPurpose:
                invalid += 1
                guard case .word(let word) = chosen.move else { continue }
                #expect(!Self.lexicon.contains(word), "\(word) is a word")
                #expect(chosen.shownAs == nil, "a non-word never shows")
                #expect(chosen.expectedRefusals.contains("not-a-word"))
            default:
                continue
            }
        }
        let measured = Double(invalid) / Double(draws)
        #expect(abs(measured - share) < 0.05, "\(invalid) of \(draws) invalid for a share of \(share)")
    }

    @Test func waitsOutsideARound() throws {
        var bot = try bot()
        var random = SplitMix64(seed: 1)
        for phase in ["lobby", "intermission", "finished"] {
            guard case .wait = bot.choose(in: round(phase: phase), you: "p1", waiting: 0, invalidShare: 0.5,
                                          using: &random) else {
                Issue.record("moved in phase \(phase)")
                continue
            }
        }
    }

    @Test func aHostStartsTheNextMatchFromTheLobbyOrTheEndAndWaitsForPlayersOnlyFirst() throws {
        let bot = try bot()
        #expect(bot.finishedGame(in: round(phase: "lobby")) == 2)
        #expect(bot.finishedGame(in: round(phase: "finished")) == 2)
        #expect(bot.finishedGame(in: round(phase: "playing")) == nil)
        #expect(bot.finishedGame(in: round(phase: "intermission")) == nil)
        #expect(bot.playersWait(in: round(phase: "lobby")) == ScrambleBot.playersWaitSeconds)
        #expect(bot.playersWait(in: round(phase: "finished")) == nil)
    }
}
