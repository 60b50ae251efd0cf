import WordGames

/// A game for tests only, never registered in `GameCatalog`: each player is dealt a hand that only they see
/// (their `PrivateView`), while everyone sees how many letters each hand holds. It has no moves of its own:
/// hands change when players come and go, are renamed, on the host's `new_game` (a new deal), and on the host's
/// `settings` `{"reverse": 1}` (which changes no public view).
///
/// Every hand carries a marker made of the player's id and the deal (`secret`, e.g. `hand-p1-d0`), so that a test
/// can look for one player's secret in the raw bytes that reached anyone else.
public struct SecretHandsGame: GamePlugin {
    public typealias PrivateView = Hand

    public struct Move: Codable, Sendable {}

    /// `{"reverse": 1}` turns every hand's letters around: a change only the players' private views show.
    public struct SettingsChange: Decodable, Sendable {
        var reverse: Int?
    }

    public struct PublicView: Encodable, Equatable, Sendable {
        public var deal: Int
        /// Per player, in seating order: their name and the number of letters they hold.
        public var hands: [Count]

        public struct Count: Encodable, Equatable, Sendable {
            public var id: String
            public var name: String
            public var letters: Int
        }
    }

    /// One player's hand: what only they see.
    public struct Hand: Codable, Equatable, Sendable {
        public var secret: String
        public var name: String
        public var letters: [String]
        public var deal: Int
    }

    public struct Snapshot: Codable, Sendable {
        var deal: Int
        var order: [String]
        var hands: [String: Hand]
    }

    public enum Rejection: GameRejection {
        case never
        public var code: String { "never" }
        public var title: String { "Never" }
        public var message: String { "This game refuses nothing." }
    }

    public static let id = "secret-hands"
    public static let title = "Secret Hands"
    public static let moveTypes: [MoveType] = []
    public static let settingSpecs: [SettingSpec] = []

    /// The deal: one more on every `new_game`.
    public private(set) var deal = 0
    /// Players in seating order, and their hands.
    private var order: [PlayerID] = []
    private var hands: [PlayerID: Hand] = [:]

    /// Keeps the hand of a player who left or moved to the spectators (as a game that keeps leavers'
    /// standings would): the room must still show it to nobody.
    public var keepsHandsOfLeavers = false

    public init(keepsHandsOfLeavers: Bool = false) {
        self.keepsHandsOfLeavers = keepsHandsOfLeavers
    }

    public init(settings: SettingsChange?, lists: WordLists, now: Double, using random: inout SplitMix64) {}

    public init(snapshot: Snapshot, lists: WordLists) {
        deal = snapshot.deal
        order = snapshot.order.map { PlayerID($0) }
        hands = Dictionary(uniqueKeysWithValues: snapshot.hands.map { (PlayerID($0.key), $0.value) })
    }

    public var snapshot: Snapshot {
        Snapshot(deal: deal, order: order.map(\.rawValue),
                 hands: Dictionary(uniqueKeysWithValues: hands.map { ($0.key.rawValue, $0.value) }))
    }

    public var publicView: PublicView {
        PublicView(deal: deal, hands: order.compactMap { id in
            hands[id].map { PublicView.Count(id: id.rawValue, name: $0.name, letters: $0.letters.count) }
        })
    }

    public func privateView(for player: PlayerID) -> Hand? {
        hands[player]
    }

    /// `player`'s hand in deal `deal`: three letters drawn from the id and the deal, so every test sees the same.
    public static func hand(of player: PlayerID, name: String, deal: Int) -> Hand {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        let seed = player.rawValue.utf8.reduce(deal &* 31) { $0 &* 7 &+ Int($1) }
        let letters = (0..<3).map { String(alphabet[abs(seed &+ $0 &* 11) % alphabet.count]) }
        return Hand(secret: "hand-\(player.rawValue)-d\(deal)", name: name, letters: letters, deal: deal)
    }

    public mutating func addPlayer(_ player: Player, now: Double) {
        guard !order.contains(player.id) else { return }
        order.append(player.id)
        hands[player.id] = Self.hand(of: player.id, name: player.name, deal: deal)
    }

    public mutating func removePlayer(_ id: PlayerID, now: Double) {
        order.removeAll { $0 == id }
        if !keepsHandsOfLeavers { hands[id] = nil }
    }

    public mutating func play(_ move: Move, by player: PlayerID, now: Double) throws(Rejection) {}

    /// A new deal: every hand changes.
    public mutating func startNext(now: Double, using random: inout SplitMix64) throws(Rejection) {
        deal += 1
        for id in order {
            hands[id] = Self.hand(of: id, name: hands[id]?.name ?? "", deal: deal)
        }
    }

    public mutating func updateSettings(_ change: SettingsChange) throws {
        guard change.reverse != nil else { return }
        for id in order { hands[id]?.letters.reverse() }
    }

    public mutating func advance(to now: Double) -> [PlayerID] { [] }

    public var nextDeadline: Double? { nil }

    public var stage: GameStage { deal == 0 ? .waiting : .finished }

    public func name(of player: PlayerID) -> String? { hands[player]?.name }

    /// Shows in the player's hand only: a rename changes their private view and the public counts' name.
    public mutating func renamePlayer(_ id: PlayerID, to name: String) {
        hands[id]?.name = name
    }
}
