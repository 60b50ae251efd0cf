/// A move or request that the rules refuse, described well enough for a client to tell the player why.
///
/// Every rejection in this module conforms, so the rooms layer can turn any of them into one kind of error reply.
public protocol GameRejection: Error, Sendable {
    /// Stable, machine-readable, kebab-case identifier such as `"already-guessed"`; clients may switch on it.
    var code: String { get }
    /// A short heading for the player, such as "Already guessed".
    var title: String { get }
    /// One or two sentences telling the player what went wrong and what to do instead.
    var message: String { get }
}
