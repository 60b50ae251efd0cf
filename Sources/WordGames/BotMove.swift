/// A move a bot chose, and what its bot needs to know about it to time it to the patch that shows it or to
/// the refusal that answers it.
public struct BotMove<Move> {
    /// The move, as the room receives it.
    public var move: Move
    /// The fields (besides `player`, always the mover) of the entry of the game's `GameBot.shownIn` list that
    /// shows the move once the game accepts it, as strings; nil for a move made to be refused.
    public var shownAs: [(field: String, value: String)]?
    /// Refusal codes the move may meet through no fault of the bot (a race with another player, a round
    /// ending while the move is on its way, a word that is not one on purpose); any other is a protocol error.
    public var expectedRefusals: Set<String>
    /// Made to be refused (`--invalid-share`): counted apart.
    public var invalidOnPurpose: Bool

    public init(_ move: Move, shownAs: [(field: String, value: String)]?, expectedRefusals: Set<String> = [],
                invalidOnPurpose: Bool = false) {
        self.move = move
        self.shownAs = shownAs
        self.expectedRefusals = expectedRefusals
        self.invalidOnPurpose = invalidOnPurpose
    }
}

/// What a bot does on a tick where it may move.
public enum BotChoice<Move> {
    /// Send this move.
    case play(BotMove<Move>)
    /// The game calls for a move but the bot knows none left to make (every word it knows was found): the
    /// load test counts these.
    case noMoveLeft
    /// Nothing to do now: not the bot's turn, between rounds, a move still on its way.
    case wait
}
