import JSON
import Rooms
import Synchronization
import WebSocket

/// An in-memory client: records every frame a room sends it and keeps the room state it has rebuilt from
/// welcome, patch and snapshot messages, exactly as a real client would.
final class MemoryLink: ClientLink {
    private static let counter = Mutex<UInt64>(0)
    let id: UInt64
    private let inbox = Mutex<[[UInt8]]>([])
    private let closes = Mutex<[UInt16]>([])

    init() {
        id = MemoryLink.counter.withLock { $0 += 1; return $0 }
    }

    func send(frame: [UInt8]) {
        inbox.withLock { $0.append(frame) }
    }

    func close(code: CloseCode, reason: String) {
        closes.withLock { $0.append(code.rawValue) }
    }

    var closeCodes: [UInt16] { closes.withLock { $0 } }

    /// Frames received since the last call, decoded to JSON.
    func drain() -> [JSONValue] {
        let frames = inbox.withLock { frames in
            let taken = frames
            frames.removeAll()
            return taken
        }
        return frames.map(Self.decode)
    }

    /// The JSON payload of an unmasked server text frame.
    static func decode(_ frame: [UInt8]) -> JSONValue {
        precondition(frame[0] == 0x81, "expected a final text frame")
        var length = Int(frame[1] & 0x7F)
        var offset = 2
        if length == 126 {
            length = Int(frame[2]) << 8 | Int(frame[3])
            offset = 4
        } else if length == 127 {
            length = (2..<10).reduce(0) { $0 << 8 | Int(frame[$1]) }
            offset = 10
        }
        precondition(frame.count == offset + length, "frame length mismatch")
        return try! JSONParser().parse(frame[offset...])
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
}
