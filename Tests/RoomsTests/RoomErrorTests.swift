import JSON
import Testing
import WordGames
@testable import Rooms

/// Every refusal's wire code, title and message, pinned: clients switch on the codes and people read the rest, so
/// a change here is a change of the protocol.
@Suite struct RoomErrorTests {
    static let room = RoomCode("QHTW")!

    /// One row per case of `RoomError.Reason` (each `NameRules.Refusal` too): reason, code, title, message.
    static let table: [(RoomError.Reason, String, String, String)] = [
        (.badMessage("A message must be a JSON object."), "bad-message", "Message not understood",
         "A message must be a JSON object."),
        (.binaryMessage, "bad-message", "Message not understood",
         "Send JSON in text frames; binary frames are not used."),
        (.unknownType(String(repeating: "x", count: 40)), "unknown-type", "Unknown message",
         "The server does not know messages of type \"\(String(repeating: "x", count: 32))\"."),
        (.fieldTooLong(field: "letter", maxCharacters: 32), "too-long", "Too long",
         "\"letter\" can be at most 32 characters."),
        (.notARoomCode, "bad-code", "Not a room code", "Room codes are 4 letters, like QHTW."),
        (.notInRoom, "not-in-room", "Not in a room", "Create or join a room first."),
        (.roomNotFound, "room-not-found", "Room not found",
         "There is no room with that code. Check the code, or create a new room."),
        (.rateLimited, "rate-limited", "Slow down", "Too many messages at once; this one was dropped."),
        (.creatingRoomsTooFast, "rate-limited", "Slow down",
         "You are creating rooms too fast; wait a few seconds and try again."),
        (.tooManyWrongCodes, "too-many-attempts", "Too many wrong codes",
         "Too many joins of rooms that do not exist. Wait a minute, then check the code."),
        (.serverStopping, "server-stopping", "Server restarting",
         "The server is shutting down, so that was not played. You will be reconnected when it is back; try it again then."),
        (.serverFull(maxRooms: 5000), "server-full", "Server full",
         "This server already hosts 5000 rooms. Try again later."),
        (.tooManyRoomsFromAddress(limit: 20), "too-many-rooms", "Too many rooms",
         "Your network already has 20 rooms open on this server. Join one of them, or close one first."),
        (.tooManyMembersFromAddress(room: room, limit: 8), "too-many-from-address", "Too many from your network",
         "Room QHTW already has 8 members from your network, the most it takes from one."),
        (.roomBusy, "room-busy", "Room busy",
         "This room is sending more chat than it can for a moment, so your message was not sent. Try again in a few seconds."),
        (.badName(.empty), "bad-name", "Name needed", "Type a name of 1 to 20 characters."),
        (.badName(.tooLong), "bad-name", "Name too long", "Names can be at most 20 characters."),
        (.badName(.control), "bad-name", "Name not allowed",
         "Names cannot contain control characters such as tabs or line breaks."),
        (.badName(.bidirectional), "bad-name", "Name not allowed",
         "Names cannot contain characters that reverse the direction of text."),
        (.badName(.unassigned), "bad-name", "Name not allowed",
         "Names cannot contain characters that Unicode has not assigned yet."),
        (.badName(.privateUse), "bad-name", "Name not allowed",
         "Names cannot contain private-use characters, which other devices cannot show."),
        (.badName(.invisible), "bad-name", "Name needed", "Names cannot be only spaces or invisible characters."),
        (.badName(.tag), "bad-name", "Name not allowed", "Names cannot contain tag characters, which are invisible."),
        (.badName(.tooManyMarks), "bad-name", "Name not allowed",
         "Names can have at most 4 accents or marks on one character."),
        (.banned(room: room), "kicked", "Removed from the room",
         "The host removed you from room QHTW; you cannot rejoin it."),
        (.seatExpired(room: room), "seat-expired", "Seat released",
         "You were away too long and your seat in room QHTW was given up. Join again with a name."),
        (.roomLocked(room: room), "room-locked", "Room locked",
         "The host of room QHTW has locked it: nobody new can join for now."),
        (.noPlayerSeats(room: room, maxPlayers: 8), "room-full", "Room full",
         "Room QHTW already has 8 players. You can still watch as a spectator."),
        (.noSpectatorSeats(room: room, maxSpectators: 50), "room-full", "Room full",
         "Room QHTW already has 50 spectators."),
        (.alreadyInRoom(room: room), "already-in-room", "Already in a room", "You are in room QHTW. Leave it first."),
        (.replaced(room: room), "replaced", "Seat moved", "Your seat in room QHTW moved to another tab or device."),
        (.seatInUse(room: room), "seat-in-use", "Already in this room",
         "You are playing in room QHTW in another tab or window. Take the seat over here, or watch from this page."),
        (.removedByHost(room: room), "kicked", "Removed from the room", "The host removed you from room QHTW."),
        (.removedByOperator(room: room), "kicked", "Removed from the room",
         "The server's operator removed you from room QHTW."),
        (.closedByOperator(room: room), "room-closed", "Room closed",
         "The server's operator closed room QHTW. Create a new room or join another."),
        (.watchingOnly, "spectator", "Watching only", "Spectators watch the game; join as a player to play."),
        (.hostOnly(action: "lock the room"), "host-only", "Host only", "Only the host can lock the room."),
        (.noSuchPlayer(id: String(repeating: "p", count: 20)), "no-such-player", "No such player",
         "Nobody with id \"\(String(repeating: "p", count: 16))\" is in this room."),
        (.cannotRemoveYourself, "cannot-kick-self", "That is you", "Use Leave to leave the room."),
        (.noSuchBan(id: "b7"), "no-such-ban", "Not removed", "Nobody removed from this room has the id \"b7\"."),
        (.spectatorCannotHost(name: "Cleo"), "not-a-player", "Not a player", "Only players can host; Cleo is watching."),
        (.emptyChat, "empty-chat", "Nothing to send", "Type a message first."),
        (.chatTooLong, "too-long", "Too long", "Chat messages can be at most 200 characters."),
        (.badChat(.bidirectional), "bad-chat", "Message not sent",
         "Chat messages cannot contain characters that reverse the direction of text."),
        (.badReaction, "bad-reaction", "Not a reaction", "Reactions are one of 👍 😂 😮 🎉 ❤️ 👏 😱 🔥."),
        (.tooManyReactions(limit: 5, seconds: 10, retryAfter: 3), "too-many-reactions", "Too many reactions",
         "You can send 5 reactions every 10 seconds. Try again in 3 seconds."),
        (.seatDuringGame, "game-in-progress", "Game in progress",
         "You can take a seat once this game is over, or the host can seat you now."),
        (.hostMustPlay, "host-must-play", "The host plays",
         "The host has to be a player. Hand hosting to another player first, then move to the spectators."),
        (.moveOfAnotherGame(doing: "Guessing letters", games: "Snowman rooms", game: "Word Scramble"), "wrong-game",
         "Not in this game", "Guessing letters is for Snowman rooms; this room plays Word Scramble."),
        (.noTurnsToSkip(game: "Word Scramble"), "wrong-game", "Not in this game", "Word Scramble has no turns to skip."),
        (.settingNotANumber(key: "rounds"), "bad-setting", "Setting not understood", "\"rounds\" must be a whole number."),
        (.unknownSetting(key: String(repeating: "k", count: 40)), "bad-setting", "Unknown setting",
         "This game has no setting \"\(String(repeating: "k", count: 32))\"."),
    ]

    @Test(arguments: table)
    func pinsCodeTitleAndMessage(reason: RoomError.Reason, code: String, title: String, message: String) {
        let error = RoomError(reason, move: "join")
        #expect(error.code == code)
        #expect(error.title == title)
        #expect(error.message == message)
        #expect(error.move == "join")
    }

    /// The table misses no case: adding one to `Reason` breaks `name(of:)` until it gets a row.
    @Test func tableCoversEveryReason() {
        let names = Set(Self.table.map { Self.name(of: $0.0) })
        #expect(names.count == 52)
        #expect(names.count == Self.table.count, "one row per case")
    }

    /// Exhaustive on purpose: a new case of `Reason` or `NameRules.Refusal` stops this from compiling.
    private static func name(of reason: RoomError.Reason) -> String {
        switch reason {
        case .badMessage: "badMessage"
        case .binaryMessage: "binaryMessage"
        case .unknownType: "unknownType"
        case .fieldTooLong: "fieldTooLong"
        case .notARoomCode: "notARoomCode"
        case .notInRoom: "notInRoom"
        case .roomNotFound: "roomNotFound"
        case .rateLimited: "rateLimited"
        case .creatingRoomsTooFast: "creatingRoomsTooFast"
        case .tooManyWrongCodes: "tooManyWrongCodes"
        case .serverStopping: "serverStopping"
        case .serverFull: "serverFull"
        case .tooManyRoomsFromAddress: "tooManyRoomsFromAddress"
        case .tooManyMembersFromAddress: "tooManyMembersFromAddress"
        case .roomBusy: "roomBusy"
        case .badName(let refusal):
            switch refusal {
            case .empty: "badName.empty"
            case .tooLong: "badName.tooLong"
            case .control: "badName.control"
            case .bidirectional: "badName.bidirectional"
            case .unassigned: "badName.unassigned"
            case .privateUse: "badName.privateUse"
            case .invisible: "badName.invisible"
            case .tag: "badName.tag"
            case .tooManyMarks: "badName.tooManyMarks"
            }
        case .banned: "banned"
        case .seatExpired: "seatExpired"
        case .roomLocked: "roomLocked"
        case .seatInUse: "seatInUse"
        case .noPlayerSeats: "noPlayerSeats"
        case .noSpectatorSeats: "noSpectatorSeats"
        case .alreadyInRoom: "alreadyInRoom"
        case .replaced: "replaced"
        case .removedByHost: "removedByHost"
        case .removedByOperator: "removedByOperator"
        case .closedByOperator: "closedByOperator"
        case .watchingOnly: "watchingOnly"
        case .hostOnly: "hostOnly"
        case .noSuchPlayer: "noSuchPlayer"
        case .cannotRemoveYourself: "cannotRemoveYourself"
        case .noSuchBan: "noSuchBan"
        case .spectatorCannotHost: "spectatorCannotHost"
        case .emptyChat: "emptyChat"
        case .chatTooLong: "chatTooLong"
        case .badChat: "badChat"
        case .badReaction: "badReaction"
        case .tooManyReactions: "tooManyReactions"
        case .seatDuringGame: "seatDuringGame"
        case .hostMustPlay: "hostMustPlay"
        case .moveOfAnotherGame: "moveOfAnotherGame"
        case .noTurnsToSkip: "noTurnsToSkip"
        case .settingNotANumber: "settingNotANumber"
        case .unknownSetting: "unknownSetting"
        }
    }

    @Test func errorReplyHasTheFieldsInWireOrder() {
        let withMove = ServerMessage.error(RoomError(.roomNotFound, move: "peek"))
        #expect(String(decoding: withMove.json, as: UTF8.self) == #"{"type":"error","code":"room-not-found","title":"Room not found","message":"There is no room with that code. Check the code, or create a new room.","move":"peek"}"#)
        let without = ServerMessage.error(RoomError(.rateLimited))
        #expect(String(decoding: without.json, as: UTF8.self) == #"{"type":"error","code":"rate-limited","title":"Slow down","message":"Too many messages at once; this one was dropped."}"#)
    }

    @Test func refusingNamesTheMoveAndKeepsTheRest() {
        let error = RoomError(.notInRoom).refusing("guess")
        #expect(error == RoomError(.notInRoom, move: "guess"))
    }

    @Test func gameRejectionsKeepTheirOwnCodeTitleAndMessage() {
        let rejection = SnowmanGame.Rejection.gameInProgress
        let error = RoomError(rejection, move: "new_game")
        #expect(error.code == rejection.code)
        #expect(error.title == rejection.title)
        #expect(error.message == rejection.message)
        #expect(error.move == "new_game")
    }
}
