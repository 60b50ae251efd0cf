import Rooms

extension LobbyQuery {
    /// Why a `GET /api/rooms` query was refused (HTTP 400 with `message`).
    struct Problem: Error, Equatable {
        let message: String
    }

    /// Offsets beyond this are refused: no server lists that many rooms, and the number is the client's.
    static let maxOffset = 1_000_000

    /// Reads `game=`, `offset=` (default 0) and `limit=` (default and at most `LobbyListing.maxPageSize`; more is
    /// served as the maximum) from a request's query string; other parameters are ignored.
    ///
    /// - Throws: `Problem` naming the parameter and what it must be.
    init(httpQuery: String?) throws(Problem) {
        self.init(game: nil, offset: 0, limit: LobbyListing.maxPageSize)
        guard let httpQuery else { return }
        for pair in httpQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? parts[1] : ""
            switch parts[0] {
            case "game":
                guard !value.isEmpty else { continue }
                guard let kind = GameKind(rawValue: String(value)) else {
                    let games = GameKind.allCases.map(\.rawValue).joined(separator: " or ")
                    throw Problem(message: "\"game\" must be \(games), not \"\(value.prefix(16))\".")
                }
                game = kind.rawValue
            case "offset":
                guard let number = Int(value), (0...Self.maxOffset).contains(number) else {
                    throw Problem(message: "\"offset\" must be a whole number from 0 to \(Self.maxOffset).")
                }
                offset = number
            case "limit":
                guard let number = Int(value), number >= 1 else {
                    throw Problem(message: "\"limit\" must be a whole number from 1 to \(LobbyListing.maxPageSize).")
                }
                limit = min(number, LobbyListing.maxPageSize)
            default:
                continue
            }
        }
    }
}
