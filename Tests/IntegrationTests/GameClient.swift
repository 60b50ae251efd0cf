import JSON
import Testing
import WebSocket

/// A game client over a real socket for tests: sends protocol messages and rebuilds the room state from
/// `welcome`, `patch` and `snapshot` as the web client does. Keeps every byte it received for leak checks.
final class GameClient {
    let socket: TestClient
    var state: JSONValue = .null
    var seq = 0
    var you: String?
    var token: String?
    var code: String?
    /// A private room's key, from `welcome`.
    var key: String?
    var errors: [JSONValue] = []
    var gaps = 0
    /// Payloads of every text message received, in order.
    var received: [[UInt8]] = []

    init(port: Int, path: String = "/ws") throws {
        socket = try TestClient.webSocket(port: port, path: path)
    }

    /// A client whose connection a trusted proxy (the server must trust 127.0.0.1) says comes from `address`.
    init(port: Int, forwardedFor address: String) throws {
        socket = try TestClient.webSocket(port: port, path: "/ws", extraHeaders: [("X-Forwarded-For", address)])
    }

    func send(_ message: JSONValue) throws {
        try socket.sendFrame(.text, JSONWriter().serialize(message))
    }

    /// Reads one message, applies it and returns it.
    /// Set while asking for a snapshot to compare with: snapshots are then returned but not applied.
    private var comparing = false

    @discardableResult
    func receive() throws -> JSONValue {
        var frame = try socket.readFrame()
        while frame.opcode == 0x9 || frame.opcode == 0xA {
            if frame.opcode == 0x9 { try socket.sendFrame(.pong, frame.payload) }
            frame = try socket.readFrame()
        }
        if frame.opcode == 0x8 {
            throw TestClient.Failure(description: "closed by the server with \(frame.closeCode.map(String.init) ?? "no code")")
        }
        received.append(frame.payload)
        let message = try JSONParser().parse(frame.payload)
        switch message["type"]?.stringValue {
        case "welcome":
            you = message["you"]?.stringValue
            token = message["token"]?.stringValue
            code = message["code"]?.stringValue
            key = message["key"]?.stringValue
            seq = message["seq"]!.intValue!
            if let state = message["state"] { self.state = state }
        case "snapshot" where !comparing:
            seq = message["seq"]!.intValue!
            state = message["state"]!
        case "patch":
            let next = message["seq"]!.intValue!
            if next == seq + 1 {
                try JSONPatch(json: message["ops"]!).apply(to: &state)
                seq = next
            } else {
                gaps += 1
            }
        case "error":
            errors.append(message)
        default:
            break
        }
        return message
    }

    /// Reads until a message satisfies `done` (checked after applying it).
    @discardableResult
    func receive(until done: (JSONValue) -> Bool) throws -> JSONValue {
        while true {
            let message = try receive()
            if done(message) { return message }
        }
    }

    func waitForSeq(_ target: Int) throws {
        while seq < target { try receive() }
    }

    func waitForError() throws -> JSONValue {
        try receive { $0["type"]?.stringValue == "error" }
    }

    /// Asks for a snapshot and returns it (without changing the rebuilt state, so the two can be compared).
    func freshSnapshot() throws -> (seq: Int, state: JSONValue) {
        comparing = true
        defer { comparing = false }
        try send(["type": "resync"])
        let snapshot = try receive { $0["type"]?.stringValue == "snapshot" }
        return (snapshot["seq"]!.intValue!, snapshot["state"]!)
    }

    static func create(port: Int, game: String, name: String, settings: JSONValue = [:], isPublic: Bool = true) throws -> GameClient {
        let client = try GameClient(port: port)
        try client.send(["type": "create", "game": JSONValue(game), "name": JSONValue(name), "public": JSONValue(isPublic),
                         "settings": settings])
        try client.receive { $0["type"]?.stringValue == "welcome" || $0["type"]?.stringValue == "error" }
        guard client.you != nil else { throw TestClient.Failure(description: "create refused: \(client.errors)") }
        return client
    }

    static func join(port: Int, code: String, name: String, spectator: Bool = false) throws -> GameClient {
        let client = try GameClient(port: port)
        try client.send(["type": "join", "code": JSONValue(code), "name": JSONValue(name), "spectator": JSONValue(spectator)])
        try client.receive { $0["type"]?.stringValue == "welcome" || $0["type"]?.stringValue == "error" }
        return client
    }

    var snowman: JSONValue { state["snowman"] ?? .null }
    var scramble: JSONValue { state["scramble"] ?? .null }
}
