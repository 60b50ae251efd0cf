/// A room's broadcasts seen as one ordered stream, for a transport that encodes them with state shared across
/// messages: the server compresses a room's patches in one deflate context (RFC 7692 with context takeover)
/// and queues the same bytes to every member.
///
/// The room calls it on its executor, with each broadcast in publish order, before any member is sent it, and
/// only when some recipient follows the stream (`ClientLink.followsBroadcastStream`). It knows nothing of what
/// the encoding is: it says where a member starts reading (`restart`), and the transport keeps each
/// connection in step or sends it the plain form.
public protocol BroadcastStream: AnyObject {
    /// Encodes the next broadcast, attaching the result to `message` (`ServerMessage.streamForm`).
    ///
    /// - Parameters:
    ///   - message: the broadcast, not yet sent to anyone.
    ///   - restart: a member joined or resumed since the last call: start the stream afresh here, so that it
    ///     can read on from this message without the ones before.
    func append(_ message: ServerMessage, restart: Bool)
}
