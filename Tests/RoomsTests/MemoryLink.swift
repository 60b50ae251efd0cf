import JSON
import Rooms
import Synchronization
import Testing

/// An in-memory client: records every message a room sends it and keeps the room state it has rebuilt from
/// welcome, patch and snapshot messages, exactly as a real client would.
final class MemoryLink: ClientLink {
    private static let counter = Mutex<UInt64>(0)
    let id: UInt64
    private let inbox = Mutex<[ServerMessage]>([])
    private let closes = Mutex<[CloseReason]>([])

    init() {
        id = MemoryLink.counter.withLock { $0 += 1; return $0 }
    }

    func send(_ message: ServerMessage) {
        inbox.withLock { $0.append(message) }
    }

    func close(_ reason: CloseReason) {
        closes.withLock { $0.append(reason) }
    }

    var closeReasons: [CloseReason] { closes.withLock { $0 } }

    /// Messages received since the last call, as sent (to check that a broadcast shares one object).
    func drainMessages() -> [ServerMessage] {
        inbox.withLock { messages in
            let taken = messages
            messages.removeAll()
            return taken
        }
    }

    /// Messages received since the last call, parsed.
    func drain() -> [JSONValue] {
        drainMessages().map { try! JSONParser().parse($0.json) }
    }
}

/// What one client knows: its rebuilt state, seq, id, token and the errors it got.
struct ClientView {
    var state: JSONValue = .null
    var seq = 0
    var you: String?
    var token: String?
    var errors: [JSONValue] = []
    var gaps = 0
    var other: [JSONValue] = []

    /// Applies messages in order, as the web client's store does.
    mutating func apply(_ messages: [JSONValue]) throws {
        for message in messages {
            switch message["type"]?.stringValue {
            case "welcome":
                you = message["you"]?.stringValue
                token = message["token"]?.stringValue
                seq = message["seq"]!.intValue!
                if let state = message["state"] { self.state = state }
            case "snapshot":
                seq = message["seq"]!.intValue!
                state = message["state"]!
            case "patch":
                let next = message["seq"]!.intValue!
                guard next == seq + 1 else { gaps += 1; continue }
                let patch = try JSONPatch(json: message["ops"]!)
                try patch.apply(to: &state)
                seq = next
            case "error":
                errors.append(message)
            default:
                other.append(message)
            }
        }
    }

    /// The members' names in the state, in order.
    var memberNames: [String] {
        state["members"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    /// Expects the last error this client got to be `code`, answering its message of type `move`.
    func expectLastError(_ code: String, move: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(errors.last?["code"]?.stringValue == code, sourceLocation: sourceLocation)
        #expect(errors.last?["move"]?.stringValue == move, sourceLocation: sourceLocation)
    }
}
