// libFuzzer target for what clients send to rooms: the client-message decoder and a live room applying the
// messages.
//
// Input layout: newline-separated client messages; byte 0 of each line picks which of three members sends it
// (the host, a player or a spectator). Every message is decoded (never trapping on any bytes); valid ones are
// applied to one long-lived Snowman room and one Word Scramble room. After each input, every member's state
// rebuilt from the messages it received must equal the room's snapshot, and every message must be well-formed JSON.
import Dispatch
import JSON
import Rooms
import Runtime
import Synchronization
import WordGames

/// A member's end of the room: the messages it got, turned back into state as a client would.
final class Member: ClientLink, @unchecked Sendable {
    private static let counter = Mutex<UInt64>(0)
    let id = Member.counter.withLock { $0 += 1; return $0 }

    private let lock = Mutex<[ServerMessage]>([])
    var state: JSONValue = .null
    /// The member's own private view (games with one, such as Sleuth), rebuilt from `private` messages.
    var privateView: JSONValue = .null
    var seq = 0
    var you: String?
    let name: String
    let spectator: Bool

    init(name: String, spectator: Bool = false) {
        self.name = name
        self.spectator = spectator
    }

    func send(_ message: ServerMessage) { lock.withLock { $0.append(message) } }
    func close(_ reason: CloseReason) {}

    /// Applies everything received so far; traps on anything a real client could not handle.
    func catchUp() {
        let received = lock.withLock { messages in
            let taken = messages
            messages.removeAll()
            return taken
        }
        for encoded in received {
            guard let message = try? JSONParser().parse(encoded.json) else { preconditionFailure("message is not JSON") }
            switch message["type"]?.stringValue {
            case "welcome":
                you = message["you"]?.stringValue
                seq = message["seq"]!.intValue!
                if let full = message["state"] { state = full }
                takePrivate(message)
            case "snapshot":
                seq = message["seq"]!.intValue!
                state = message["state"]!
                takePrivate(message)
            case "private":
                guard let patch = try? JSONPatch(json: message["ops"]!), (try? patch.apply(to: &privateView)) != nil else {
                    preconditionFailure("private operations do not apply")
                }
            case "patch":
                let next = message["seq"]!.intValue!
                precondition(next == seq + 1, "patch out of sequence")
                guard let patch = try? JSONPatch(json: message["ops"]!), (try? patch.apply(to: &state)) != nil else {
                    preconditionFailure("patch does not apply")
                }
                seq = next
            case "error", "left", "lobby", "reaction":
                break
            default:
                preconditionFailure("unknown message type")
            }
        }
    }

    /// A welcome's or snapshot's `private` (the member's whole private view), which only players get.
    private func takePrivate(_ message: JSONValue) {
        privateView = message["private"] ?? .null
    }
}

struct Table: @unchecked Sendable {
    let room: Room
    let members: [Member]
}

nonisolated(unsafe) let tables: [Table] = {
    let lists = try! WordLists.bundled()
    let registry = RoomRegistry(lists: lists, seed: 1)
    // A room of every registered game.
    return GameKind.allCases.map { kind in
        let host = Member(name: "Host")
        let room = Blocking.run { try! await registry.create(kind, isPublic: true, settings: [:], creator: host, name: "Host") }
        let player = Member(name: "Player")
        let watcher = Member(name: "Watcher", spectator: true)
        room.join(player, name: "Player", token: nil, lastSeq: nil, spectator: false)
        room.join(watcher, name: "Watcher", token: nil, lastSeq: nil, spectator: true)
        return Table(room: room, members: [host, player, watcher])
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
        let sender = Int(line[line.startIndex]) % 3
        let body = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line.dropFirst()))
        guard let message = try? ClientMessage.parse(body) else { continue }
        for table in tables {
            table.room.receive(message, from: table.members[sender].id)
        }
    }
    for table in tables {
        let room = table.room
        // Round and turn timers fire on the room's own clock, so a patch may land between taking the snapshot and
        // reading the members' frames: then take the snapshot again (a member can be ahead, never behind).
        var (seq, state) = (0, JSONValue.null)
        for attempt in 0..<5 {
            Blocking.run { await room.settled() }
            (seq, state) = Blocking.run { await room.snapshot() }
            for member in table.members { member.catchUp() }
            let ahead = table.members.contains { $0.you != nil && $0.seq > seq }
            if !ahead || attempt == 4 { break }
        }
        let present = Set((state["members"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        for member in table.members {
            if let you = member.you, present.contains(you) {
                precondition(member.seq == seq && member.state == state, "a member's rebuilt state differs from the room's")
                // Whoever watches now holds no private view (a player moved to the spectators is sent `null`).
                let role = state["members"]?.arrayValue?.first { $0["id"]?.stringValue == you }?["role"]?.stringValue
                precondition(role != "spectator" || member.privateView == .null, "a spectator holds a private view")
            } else {
                // Kicked or left: come back as a new member, so the table keeps three.
                member.you = nil
                room.join(member, name: member.name, token: nil, lastSeq: nil, spectator: member.spectator)
            }
        }
    }
    return 0
}
