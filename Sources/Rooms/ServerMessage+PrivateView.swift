import JSON

extension ServerMessage {
    /// `{"type":"private","ops":[…]}`: operations on one player's private view, paths relative to it.
    static func privateView(_ operations: [JSONPatch.Operation]) -> ServerMessage {
        var payload: [UInt8] = []
        payload.reserveCapacity(128)
        payload.append(contentsOf: #"{"type":"private","ops":"#.utf8)
        JSONWriter().write(JSONPatch(operations), into: &payload)
        payload.append(UInt8(ascii: "}"))
        return ServerMessage(json: payload)
    }
}
