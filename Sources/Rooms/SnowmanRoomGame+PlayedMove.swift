import JSON
import WordGames

extension SnowmanRoomGame {
    /// A guess that leaves the game running: the letters it revealed, the guess, the wrong guesses, the
    /// guesser's score, the turn and its timer, the status line. Everything else (the settings, the history,
    /// the leaderboard, the word) only changes when a game begins or ends, which goes through `show`.
    func showPlayedMove(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor) -> Bool {
        guard let guess = playedGuess, game.status == .inProgress,
              let scorer = game.players.firstIndex(where: { $0.id == guess.player }),
              kept.positions.holds(count: kept.positions.previous.count), !kept.positions.previous.isEmpty,
              kept.scores.holds(count: game.players.count), kept.scores.previous[scorer].id == guess.player,
              kept.guesses.holds(count: game.guesses.count - 1, generation: game.gameNumber),
              game.guesses.last == guess
        else { return false }
        let revealed = game.positions(revealedBy: guess)
        guard revealed.allSatisfy({ kept.positions.previous.indices.contains($0.id) }) else { return false }

        editor.set(&object, "statusLine", JSONValue(game.statusLine))
        for position in revealed {
            guard editor.replace(&object, "positions", index: position.id, field: "letter",
                                 nullable(position.letter),
                                 was: nullable(kept.positions.previous[position.id].letter)) else { return false }
            kept.positions.replace(at: position.id, with: position)
        }
        guard editor.insert(&object, "guesses", at: game.guesses.count - 1, Self.json(guess)) else {
            return false
        }
        kept.guesses.noteAdded(guess)
        editor.set(&object, "wrongGuesses", JSONValue(game.wrongGuesses))
        var line = kept.scores.previous[scorer]
        line.score = game.scores[guess.player, default: 0]
        guard editor.replace(&object, "scores", index: scorer, field: "score", JSONValue(line.score),
                             was: JSONValue(kept.scores.previous[scorer].score)) else {
            return false
        }
        kept.scores.replace(at: scorer, with: line)
        editor.set(&object, "turn", nullable(game.turn?.rawValue))
        editor.set(&object, "turnEndsAt", nullable(game.turnDeadline))
        return true
    }
}
