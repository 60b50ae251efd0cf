extension RoomError {
    /// Why a room, the registry or the server's session refused a request; each case has its stable wire code,
    /// title and message here and nowhere else.
    ///
    /// Several cases share a code (clients switch on codes; the cases tell the situations apart for people).
    public enum Reason: Hashable, Sendable {
        // MARK: Messages that cannot be read (code, title and detail pinned by the parser's tests)

        /// Code `bad-message`: malformed JSON or a missing or mistyped field; the message says which.
        case badMessage(String)
        /// Code `bad-message`: a binary frame on the game socket, which only speaks JSON text.
        case binaryMessage
        /// Code `unknown-type`: a `type` the server does not know (shown cut to 32 characters).
        case unknownType(String)
        /// Code `too-long`: a string field over its bound of characters.
        case fieldTooLong(field: String, maxCharacters: Int)
        /// Code `bad-code`: a room code that is not 4 letters.
        case notARoomCode

        // MARK: The session, before a room

        /// Code `not-in-room`: a room message from a connection in no room.
        case notInRoom
        /// Code `room-not-found`: no room with that code (or it was disposed of meanwhile).
        case roomNotFound
        /// Code `rate-limited`: the connection's message budget is spent; the message was dropped.
        case rateLimited
        /// Code `rate-limited`: the connection creates rooms faster than its budget allows.
        case creatingRoomsTooFast
        /// Code `too-many-attempts`: the address joined or peeked at too many rooms that do not exist.
        case tooManyWrongCodes
        /// Code `server-stopping`: the server is shutting down and has saved its rooms; the message was not
        /// applied, so that nothing is played after the last save. The client resumes once the server is back.
        case serverStopping

        // MARK: The registry

        /// Code `server-full`: the server hosts its maximum of rooms.
        case serverFull(maxRooms: Int)
        /// Code `bad-name`: the name is refused for the reason given.
        case badName(NameRules.Refusal)
        /// Code `too-many-rooms`: the client's address has `limit` rooms alive, the most it may (rooms nobody
        /// else joined expire soon after their creator leaves).
        case tooManyRoomsFromAddress(limit: Int)

        // MARK: Joining a room

        /// Code `kicked`: the host removed this person from the room, which they cannot rejoin.
        case banned(room: RoomCode)
        /// Code `seat-expired`: the seat to resume was given up after the grace period.
        case seatExpired(room: RoomCode)
        /// Code `seat-in-use`: this browser's seat is held by another of its connections (another tab); the join
        /// may take it over (`takeover`) or watch as a spectator.
        case seatInUse(room: RoomCode)
        /// Code `room-locked`: the host locked the room to newcomers.
        case roomLocked(room: RoomCode)
        /// Code `room-full`: every player's seat is taken.
        case noPlayerSeats(room: RoomCode, maxPlayers: Int)
        /// Code `room-full`: every spectator's seat is taken.
        case noSpectatorSeats(room: RoomCode, maxSpectators: Int)
        /// Code `too-many-from-address`: `limit` members of the room already come from the joiner's address.
        case tooManyMembersFromAddress(room: RoomCode, limit: Int)
        /// Code `already-in-room`: create, join or peek from a connection already in a room.
        case alreadyInRoom(room: RoomCode)

        // MARK: In a room

        /// Code `replaced`: the seat was resumed from another connection, which now has it.
        case replaced(room: RoomCode)
        /// Code `kicked`: the host removed this member.
        case removedByHost(room: RoomCode)
        /// Code `kicked`: the server's operator removed this member (from the dashboard at `/admin`).
        case removedByOperator(room: RoomCode)
        /// Code `room-closed`: the server's operator closed the room; it no longer exists.
        case closedByOperator(room: RoomCode)
        /// Code `spectator`: spectators cannot make moves.
        case watchingOnly
        /// Code `host-only`: only the host may do this; `action` completes "Only the host can …".
        case hostOnly(action: String)
        /// Code `no-such-player`: no member has the id given (shown cut to 16 characters).
        case noSuchPlayer(id: String)
        /// Code `cannot-kick-self`: the host tried to remove themselves.
        case cannotRemoveYourself
        /// Code `no-such-ban`: no removal has the id given (shown cut to 16 characters).
        case noSuchBan(id: String)
        /// Code `not-a-player`: hosting handed to a spectator.
        case spectatorCannotHost(name: String)
        /// Code `empty-chat`: a chat line with nothing but whitespace.
        case emptyChat
        /// Code `too-long`: a chat line over `ClientMessage.maxChatCharacters`.
        case chatTooLong
        /// Code `bad-chat`: a chat line holds characters the name rules refuse, or shows nothing.
        case badChat(NameRules.Refusal)
        /// Code `room-busy`: the room's chat, renames and reactions are over its broadcast budget for now
        /// (`RoomConfiguration.chatBudgetBytesPerSecond`); the message was not sent to anyone.
        case roomBusy
        /// Code `bad-reaction`: an emoji not in `Reaction.emoji`.
        case badReaction
        /// Code `too-many-reactions`: more than `limit` reactions in `seconds`; the next is allowed in `retryAfter`.
        case tooManyReactions(limit: Int, seconds: Int, retryAfter: Int)
        /// Code `game-in-progress`: a spectator asked for a seat while a game is being played.
        case seatDuringGame
        /// Code `host-must-play`: the host cannot move to the spectators.
        case hostMustPlay

        // MARK: The room's game

        /// Code `wrong-game`: a move of another game, such as a Snowman guess in a Word Scramble room. `doing` is
        /// what the move does ("Guessing letters"), `games` where it belongs ("Snowman rooms"), `game` this room's.
        case moveOfAnotherGame(doing: String, games: String, game: String)
        /// Code `wrong-game`: a turn skip in a game without turns, such as Word Scramble.
        case noTurnsToSkip(game: String)
        /// Code `bad-setting`: a setting that is not a whole number.
        case settingNotANumber(key: String)
        /// Code `bad-setting`: a setting the game does not have (shown cut to 32 characters).
        case unknownSetting(key: String)

        /// Stable, machine-readable, kebab-case: clients switch on it.
        public var code: String { wire.code }

        /// A short heading for the player.
        public var title: String { wire.title }

        /// One or two sentences saying what went wrong and what to do instead.
        public var message: String { wire.message }

        /// Each case's code, title and message side by side, so a case reads as what the client gets.
        private var wire: (code: String, title: String, message: String) {
            switch self {
            case .badMessage(let detail):
                ("bad-message", "Message not understood", detail)
            case .binaryMessage:
                ("bad-message", "Message not understood", "Send JSON in text frames; binary frames are not used.")
            case .unknownType(let type):
                ("unknown-type", "Unknown message", "The server does not know messages of type \"\(type.prefix(32))\".")
            case .fieldTooLong(let field, let maxCharacters):
                ("too-long", "Too long", "\"\(field)\" can be at most \(maxCharacters) characters.")
            case .notARoomCode:
                ("bad-code", "Not a room code", "Room codes are 4 letters, like QHTW.")
            case .notInRoom:
                ("not-in-room", "Not in a room", "Create or join a room first.")
            case .roomNotFound:
                ("room-not-found", "Room not found", "There is no room with that code. Check the code, or create a new room.")
            case .rateLimited:
                ("rate-limited", "Slow down", "Too many messages at once; this one was dropped.")
            case .creatingRoomsTooFast:
                ("rate-limited", "Slow down", "You are creating rooms too fast; wait a few seconds and try again.")
            case .tooManyWrongCodes:
                ("too-many-attempts", "Too many wrong codes",
                 "Too many joins of rooms that do not exist. Wait a minute, then check the code.")
            case .serverStopping:
                ("server-stopping", "Server restarting",
                 "The server is shutting down, so that was not played. You will be reconnected when it is back; try it again then.")
            case .serverFull(let maxRooms):
                ("server-full", "Server full", "This server already hosts \(maxRooms) rooms. Try again later.")
            case .badName(let refusal):
                Self.wire(of: refusal)
            case .tooManyRoomsFromAddress(let limit):
                ("too-many-rooms", "Too many rooms",
                 "Your network already has \(limit) rooms open on this server. Join one of them, or close one first.")
            case .tooManyMembersFromAddress(let room, let limit):
                ("too-many-from-address", "Too many from your network",
                 "Room \(room) already has \(limit) members from your network, the most it takes from one.")
            case .roomBusy:
                ("room-busy", "Room busy",
                 "This room is sending more chat than it can for a moment, so your message was not sent. Try again in a few seconds.")
            case .banned(let room):
                ("kicked", "Removed from the room", "The host removed you from room \(room); you cannot rejoin it.")
            case .seatExpired(let room):
                ("seat-expired", "Seat released",
                 "You were away too long and your seat in room \(room) was given up. Join again with a name.")
            case .seatInUse(let room):
                ("seat-in-use", "Already in this room",
                 "You are playing in room \(room) in another tab or window. Take the seat over here, or watch from this page.")
            case .roomLocked(let room):
                ("room-locked", "Room locked", "The host of room \(room) has locked it: nobody new can join for now.")
            case .noPlayerSeats(let room, let maxPlayers):
                ("room-full", "Room full",
                 "Room \(room) already has \(maxPlayers) players. You can still watch as a spectator.")
            case .noSpectatorSeats(let room, let maxSpectators):
                ("room-full", "Room full", "Room \(room) already has \(maxSpectators) spectators.")
            case .alreadyInRoom(let room):
                ("already-in-room", "Already in a room", "You are in room \(room). Leave it first.")
            case .replaced(let room):
                ("replaced", "Seat moved", "Your seat in room \(room) moved to another tab or device.")
            case .removedByHost(let room):
                ("kicked", "Removed from the room", "The host removed you from room \(room).")
            case .removedByOperator(let room):
                ("kicked", "Removed from the room", "The server's operator removed you from room \(room).")
            case .closedByOperator(let room):
                ("room-closed", "Room closed", "The server's operator closed room \(room). Create a new room or join another.")
            case .watchingOnly:
                ("spectator", "Watching only", "Spectators watch the game; join as a player to play.")
            case .hostOnly(let action):
                ("host-only", "Host only", "Only the host can \(action).")
            case .noSuchPlayer(let id):
                ("no-such-player", "No such player", "Nobody with id \"\(id.prefix(16))\" is in this room.")
            case .cannotRemoveYourself:
                ("cannot-kick-self", "That is you", "Use Leave to leave the room.")
            case .noSuchBan(let id):
                ("no-such-ban", "Not removed", "Nobody removed from this room has the id \"\(id.prefix(16))\".")
            case .spectatorCannotHost(let name):
                ("not-a-player", "Not a player", "Only players can host; \(name) is watching.")
            case .emptyChat:
                ("empty-chat", "Nothing to send", "Type a message first.")
            case .chatTooLong:
                ("too-long", "Too long", "Chat messages can be at most \(ClientMessage.maxChatCharacters) characters.")
            case .badChat(let refusal):
                Self.chatWire(of: refusal)
            case .badReaction:
                ("bad-reaction", "Not a reaction", "Reactions are one of \(Reaction.emoji.joined(separator: " ")).")
            case .tooManyReactions(let limit, let seconds, let retryAfter):
                ("too-many-reactions", "Too many reactions",
                 "You can send \(limit) reactions every \(seconds) seconds. Try again in \(retryAfter) "
                    + "second\(retryAfter == 1 ? "" : "s").")
            case .seatDuringGame:
                ("game-in-progress", "Game in progress",
                 "You can take a seat once this game is over, or the host can seat you now.")
            case .hostMustPlay:
                ("host-must-play", "The host plays",
                 "The host has to be a player. Hand hosting to another player first, then move to the spectators.")
            case .moveOfAnotherGame(let doing, let games, let game):
                ("wrong-game", "Not in this game", "\(doing) is for \(games); this room plays \(game).")
            case .noTurnsToSkip(let game):
                ("wrong-game", "Not in this game", "\(game) has no turns to skip.")
            case .settingNotANumber(let key):
                ("bad-setting", "Setting not understood", "\"\(key)\" must be a whole number.")
            case .unknownSetting(let key):
                ("bad-setting", "Unknown setting", "This game has no setting \"\(key.prefix(32))\".")
            }
        }

        /// `bad-name`, titled and explained for the refusal.
        private static func wire(of refusal: NameRules.Refusal) -> (code: String, title: String, message: String) {
            let limit = NameRules.maxCharacters
            return switch refusal {
            case .empty:
                ("bad-name", "Name needed", "Type a name of 1 to \(limit) characters.")
            case .tooLong:
                ("bad-name", "Name too long", "Names can be at most \(limit) characters.")
            case .control:
                ("bad-name", "Name not allowed", "Names cannot contain control characters such as tabs or line breaks.")
            case .bidirectional:
                ("bad-name", "Name not allowed", "Names cannot contain characters that reverse the direction of text.")
            case .unassigned:
                ("bad-name", "Name not allowed", "Names cannot contain characters that Unicode has not assigned yet.")
            case .privateUse:
                ("bad-name", "Name not allowed",
                 "Names cannot contain private-use characters, which other devices cannot show.")
            case .invisible:
                ("bad-name", "Name needed", "Names cannot be only spaces or invisible characters.")
            case .tag:
                ("bad-name", "Name not allowed", "Names cannot contain tag characters, which are invisible.")
            case .tooManyMarks:
                ("bad-name", "Name not allowed",
                 "Names can have at most \(NameRules.maxMarksPerCharacter) accents or marks on one character.")
            }
        }

        /// `bad-chat`, titled and explained for the refusal (`checkChat` refuses neither unassigned nor
        /// private-use code points, nor by length: `emptyChat` and `chatTooLong` say those).
        private static func chatWire(of refusal: NameRules.Refusal) -> (code: String, title: String, message: String) {
            let message = switch refusal {
            case .empty, .invisible:
                "Chat messages cannot be only spaces or invisible characters."
            case .tooLong:
                "Chat messages can be at most \(ClientMessage.maxChatCharacters) characters."
            case .control:
                "Chat messages cannot contain control characters such as tabs or line breaks."
            case .bidirectional:
                "Chat messages cannot contain characters that reverse the direction of text."
            case .unassigned:
                "Chat messages cannot contain characters that Unicode has not assigned yet."
            case .privateUse:
                "Chat messages cannot contain private-use characters."
            case .tag:
                "Chat messages cannot contain tag characters, which are invisible."
            case .tooManyMarks:
                "Chat messages can have at most \(NameRules.maxMarksPerCharacter) accents or marks on one character."
            }
            return ("bad-chat", "Message not sent", message)
        }
    }
}
