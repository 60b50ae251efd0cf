#if canImport(Glibc)
import Glibc
#endif
import Rooms
import Transport
import WordRoomsServer

// Signals are taken synchronously on this thread; every other thread inherits the blocked mask.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let options = ServerOptions.Parsed.options(parsing: ServerOptions.parse, usage: ServerOptions.usage) { mistake in
    Log.info("wordrooms: \(mistake). Run 'wordrooms --help' for the options.")
}

let fileLimit = OpenFileLimit.raiseToHardLimit()
let server: WordRoomsServer
do {
    var rooms = RoomConfiguration()
    rooms.resumeGraceSeconds = Double(options.resumeGraceSeconds)
    rooms.emptyRoomGraceSeconds = Double(options.roomGraceSeconds)
    rooms.awayTurnSeconds = Double(options.awayTurnSeconds)
    rooms.silenceSeconds = Double(options.silenceSeconds)
    rooms.maxRooms = options.maxRooms
    rooms.maxRoomsPerAddress = options.roomsPerAddress
    rooms.creatorOnlyRoomGraceSeconds = Double(options.creatorOnlyGraceSeconds)
    rooms.maxMembersPerAddress = options.membersPerAddress
    rooms.chatBudgetBytesPerSecond = options.roomChatBudget
    rooms.privateRoomKeys = !options.benchKeylessRooms
    var limits = GameLimits()
    limits.messagesPerSecond = Double(options.messageRate)
    limits.messageBurst = Double(options.messageRate * 2)
    limits.handshakesPerSecond = Double(options.handshakeRate)
    limits.lobbyRequestsPerSecond = Double(options.lobbyRate)
    limits.lobbyRequestBurst = Double(options.lobbyRate * 6)
    limits.roomCreationsPerAddressPerMinute = Double(options.roomCreationsPerMinute)
    server = try WordRoomsServer(options: options, rooms: rooms, limits: limits)
} catch {
    Log.info("wordrooms: \(error)")
    exit(1)
}

// The first line is the one scripts read; the addresses for friends on the same network follow it, in the same
// write.
var startLines = ["WordRooms is running at \(server.url) (\(options.threads) threads, up to \(fileLimit) open files; Ctrl-C stops)"]
startLines += server.networkURLs.map { "Network: \($0)" }
// The generated token is shown this once (it is never logged again); a token given with --admin-token is not.
startLines.append("Admin: \(server.adminURL)" + (server.adminTokenGenerated ? "" : " (the token given with --admin-token)"))
Log.output(startLines.joined(separator: "\n"))
if server.webRoot == nil {
    Log.info("warning: no web/ directory found; pass --web DIR to serve the web client")
}

var received: Int32 = 0
sigwait(&stopSignals, &received)
Log.info("stopping: closing connections")
server.shutdown()
exit(0)
