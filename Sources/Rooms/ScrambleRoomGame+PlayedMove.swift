import JSON
import WordGames

extension ScrambleRoomGame {
    /// A word found while the round runs: the word at the front of `found`, the round's word count (a valid
    /// word the list does not show adds one), the finder's score and the scoreboard lines whose place or points
    /// moved. The rest (the phase, the root, the timer, the rounds played, the settings) changes only when a
    /// round or match begins or ends, which goes through `show`.
    func showPlayedMove(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor) -> Bool {
        guard let word = playedWord, game.phase == .playing, game.root != nil, game.found.first == word,
              let scorer = game.players.firstIndex(where: { $0.id == word.player }),
              kept.found.holds(count: game.found.count - 1, generation: foundGeneration),
              kept.scores.holds(count: game.players.count), kept.scores.previous[scorer].id == word.player
        else { return false }
        let scoreboard = game.scoreboard
        guard kept.scoreboard.holds(count: scoreboard.count) else { return false }

        guard editor.insert(&object, "found", at: 0, Self.shownJSON(word)) else { return false }
        kept.found.noteAdded(word)
        // Only a word the list does not show changes the round's count (counting it is a pass over the words).
        if game.addsToTotalWords(word) { editor.set(&object, "totalWords", JSONValue(game.totalWords)) }
        var line = kept.scores.previous[scorer]
        line.score = game.scores[word.player, default: 0]
        guard editor.replace(&object, "scores", index: scorer, field: "score", JSONValue(line.score),
                             was: JSONValue(kept.scores.previous[scorer].score)) else {
            return false
        }
        kept.scores.replace(at: scorer, with: line)
        // Lines the finder passed move down one place: each changed line is changed field by field, as a diff of
        // the line would, the list looked up once.
        var edits: [(index: Int, field: String, value: JSONValue)] = []
        var changed: [Int] = []
        for index in scoreboard.indices {
            let new = scoreboard[index]
            let old = kept.scoreboard.previous[index]
            guard new != old else { continue }
            changed.append(index)
            if new.player != old.player { edits.append((index, "player", JSONValue(new.player.rawValue))) }
            if new.name != old.name { edits.append((index, "name", JSONValue(new.name))) }
            if new.score != old.score { edits.append((index, "score", JSONValue(new.score))) }
            if new.rank != old.rank { edits.append((index, "rank", JSONValue(new.rank))) }
        }
        guard editor.replace(&object, "scoreboard", fields: edits) else { return false }
        for index in changed { kept.scoreboard.replace(at: index, with: scoreboard[index]) }
        return true
    }
}
