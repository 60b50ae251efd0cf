/// The games a room can host.
public enum GameKind: String, Sendable, Hashable, CaseIterable {
    case snowman
    case scramble
}
