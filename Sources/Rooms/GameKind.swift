/// A game a room can host, by its name on the wire (`snowman`, `scramble`, ...). Only the games in `GameRegistry`
/// exist: each plug-in's `id` is its kind.
public struct GameKind: RawRepresentable, Sendable, Hashable, CaseIterable {
    public let rawValue: String

    /// The registered game named `rawValue`, or nil when no game has that name.
    public init?(rawValue: String) {
        guard let game = GameRegistry.game(named: rawValue) else { return nil }
        self = game.kind
    }

    /// A game's own kind, declared by its adapter.
    init(declaring rawValue: String) {
        self.rawValue = rawValue
    }

    /// Every game the server hosts, in the registry's order.
    public static var allCases: [GameKind] { GameRegistry.games.map { $0.kind } }
}

extension GameKind {
    /// Every game's wire name, quoted, as a refusal lists them: `"snowman", "scramble" or "sleuth"`.
    static var quotedNames: String {
        let names = allCases.map { "\"\($0.rawValue)\"" }
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
