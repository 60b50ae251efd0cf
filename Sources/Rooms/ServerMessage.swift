import JSON
import Synchronization

/// One message from the server, encoded once as JSON: a broadcast hands this same object to every recipient.
///
/// Rooms know nothing of framing. The transport turns `json` into its wire form (a WebSocket text frame) through
/// `wireForm(_:)` the first time any link sends the message, and the form is kept here for every later recipient
/// and for replays from the patch history: a patch to a hundred members is encoded once and framed once.
public final class ServerMessage: @unchecked Sendable {
    /// The message as UTF-8 JSON text.
    public let json: [UInt8]
    /// Where `wire` stands: `empty`, `storing` (one thread is writing it) or `stored` (set, never written again).
    /// An atomic rather than a lock or a rule about threads: a message is usually sent from one thread (its room's
    /// executor, the registry's or a connection's loop), but shared ones, such as the session's prepared replies,
    /// are sent from every loop at once.
    private let state = Atomic<UInt8>(ServerMessage.empty)
    /// The transport's form of `json`: written only by the thread that moved `state` from `empty` to `storing`,
    /// before it publishes `stored` (releasing); read only after `stored` is seen (acquiring). Hence
    /// `@unchecked Sendable`.
    private var wire: [UInt8] = []

    private static let empty: UInt8 = 0
    private static let storing: UInt8 = 1
    private static let stored: UInt8 = 2

    /// A message whose JSON is already written.
    ///
    /// - Parameter json: One complete JSON value, UTF-8.
    public init(json: [UInt8]) {
        self.json = json
    }

    /// The message in the transport's form, made by `encode` on first use and kept for every later call.
    ///
    /// `encode` must be a pure function of the JSON, the same for every caller (the process has one transport):
    /// threads that call at the same moment as the first may each encode, and get equal bytes.
    ///
    /// - Parameter encode: Turns the JSON into the bytes to queue, e.g. a WebSocket text frame.
    /// - Returns: The bytes to send.
    public func wireForm(_ encode: ([UInt8]) -> [UInt8]) -> [UInt8] {
        if state.load(ordering: .acquiring) == Self.stored { return wire }
        let made = encode(json)
        if state.compareExchange(expected: Self.empty, desired: Self.storing, ordering: .acquiring).exchanged {
            wire = made
            state.store(Self.stored, ordering: .releasing)
        }
        return made
    }

    // MARK: The messages rooms send

    /// Any message given as an object.
    static func object(_ message: JSONObject) -> ServerMessage {
        var payload: [UInt8] = []
        payload.reserveCapacity(256)
        JSONWriter().write(.object(message), into: &payload)
        return ServerMessage(json: payload)
    }

    /// `message` with `"state"` added last as JSON already written (a welcome, a snapshot).
    static func object(_ message: JSONObject, state: [UInt8]) -> ServerMessage {
        var payload: [UInt8] = []
        payload.reserveCapacity(160 + state.count)
        JSONWriter().write(.object(message), into: &payload)
        // Reopens the object: `{...}` becomes `{...,"state":STATE}` (`{"state":STATE}` when it was empty).
        payload.removeLast()
        payload.append(contentsOf: (message.keys.isEmpty ? #""state":"# : #","state":"#).utf8)
        payload.append(contentsOf: state)
        payload.append(UInt8(ascii: "}"))
        return ServerMessage(json: payload)
    }

    /// `{"type":"patch","seq":…,"ops":[…]}`, the operations written straight from the patch.
    static func patch(seq: Int, ops: JSONPatch) -> ServerMessage {
        var payload: [UInt8] = []
        payload.reserveCapacity(256)
        payload.append(contentsOf: #"{"type":"patch","seq":"#.utf8)
        payload.append(contentsOf: String(seq).utf8)
        payload.append(contentsOf: #","ops":"#.utf8)
        JSONWriter().write(ops, into: &payload)
        payload.append(UInt8(ascii: "}"))
        return ServerMessage(json: payload)
    }

    /// `{"type":"error","code":…,"title":…,"message":…}`, with `"move"` when the error names one.
    public static func error(_ error: RoomError) -> ServerMessage {
        var object: JSONObject = [
            "type": "error", "code": JSONValue(error.code), "title": JSONValue(error.title),
            "message": JSONValue(error.message),
        ]
        if let move = error.move { object["move"] = JSONValue(move) }
        return self.object(object)
    }
}
