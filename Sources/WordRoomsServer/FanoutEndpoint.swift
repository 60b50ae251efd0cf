import Transport
import WebSocket

/// `/fanout/NAME`, served only with `--bench-fanout`: a topic per path, and every message a member sends goes to
/// every member of its topic, the sender included, as the same frame.
///
/// This is the benchmarks' room broadcast, the shape of a pub/sub server such as uWebSockets' `publish` or the
/// Node `ws` and Go gorilla peers in `Tests/Bench/peers`: one message in, one frame encoded once, queued to N
/// sockets. It does not take the game path (sessions, room actors, state, JSON Patch): that is what the `play`
/// scenario measures, and here it would measure games against relays. What it shares with the game rooms is the
/// transport's part of a broadcast, one encoded frame whose bytes every recipient's queue references, and the
/// event loops that write it.
final class FanoutEndpoint: WebSocketEndpoint {
    /// Paths under it name the topic.
    static let pathPrefix = "/fanout/"

    let maxMessageBytes: Int
    let topics = FanoutTopics()

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// The topic of a path: what follows `/fanout/`, nil when nothing does.
    static func topicName(ofPath path: String) -> String? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        let name = path.dropFirst(pathPrefix.count)
        return name.isEmpty ? nil : String(name)
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        guard let name = Self.topicName(ofPath: request.path) else {
            connection.close(code: .policyViolation, reason: "no topic")
            return
        }
        connection.context = topics.join(name, member: connection.handle)
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        guard let topic = connection.context as? FanoutTopic else { return }
        topic.broadcast(frame: FrameEncoder.encode(.text, payload: text), from: connection.handle)
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        guard let topic = connection.context as? FanoutTopic else { return }
        topic.broadcast(frame: FrameEncoder.encode(.binary, payload: data), from: connection.handle)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        guard let topic = connection.context as? FanoutTopic else { return }
        topics.leave(topic, member: connection.handle)
    }
}
