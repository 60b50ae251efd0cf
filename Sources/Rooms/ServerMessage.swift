import JSON
import WebSocket

/// Encodes server messages straight into WebSocket text frames: each is serialized once, and a broadcast hands
/// the same bytes to every recipient.
enum ServerMessage {
    static func frame(_ message: JSONObject) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(256)
        JSONWriter().write(.object(message), into: &payload)
        return FrameEncoder.encode(.text, payload: payload)
    }

    /// `{"type":"patch","seq":…,"ops":[…]}`, the operations written straight from the patch.
    static func patch(seq: Int, ops: JSONPatch) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(256)
        payload.append(contentsOf: #"{"type":"patch","seq":"#.utf8)
        payload.append(contentsOf: String(seq).utf8)
        payload.append(contentsOf: #","ops":"#.utf8)
        JSONWriter().write(ops, into: &payload)
        payload.append(UInt8(ascii: "}"))
        return FrameEncoder.encode(.text, payload: payload)
    }

    static func snapshot(seq: Int, state: JSONValue, now: Double) -> [UInt8] {
        frame(["type": "snapshot", "seq": JSONValue(seq), "serverTime": JSONValue(now), "state": state])
    }

    static func error(_ error: RoomError) -> [UInt8] {
        var object: JSONObject = [
            "type": "error", "code": JSONValue(error.code), "title": JSONValue(error.title),
            "message": JSONValue(error.message),
        ]
        if let move = error.move { object["move"] = JSONValue(move) }
        return frame(object)
    }
}
