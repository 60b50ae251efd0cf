import Testing
import WordGames

@Suite struct ScoreLineTests {
    private let alice = Player(id: "alice", name: "Alice")
    private let bob = Player(id: "bob", name: "Bob")
    private let carol = Player(id: "carol", name: "Carol")
    private let dave = Player(id: "dave", name: "Dave")

    @Test func ranksBestScoreFirst() {
        let board = ScoreLine.ranked([(alice, 3), (bob, 10), (carol, 7)])
        #expect(board.map(\.player) == ["bob", "carol", "alice"])
        #expect(board.map(\.rank) == [1, 2, 3])
        #expect(board.map(\.name) == ["Bob", "Carol", "Alice"])
    }

    @Test func tiesShareRankAndSkipTheNext() {
        let board = ScoreLine.ranked([(alice, 5), (bob, 9), (carol, 9), (dave, 1)])
        #expect(board.map(\.rank) == [1, 1, 3, 4])
    }

    @Test func tiesKeepJoinOrder() {
        let board = ScoreLine.ranked([(carol, 0), (alice, 0), (bob, 0)])
        #expect(board.map(\.player) == ["carol", "alice", "bob"])
        #expect(board.allSatisfy { $0.rank == 1 })
    }

    @Test func emptyBoardIsEmpty() {
        #expect(ScoreLine.ranked([]).isEmpty)
    }
}
