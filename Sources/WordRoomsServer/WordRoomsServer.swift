#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Rooms
import Transport
import WordGames
import Runtime

/// A running WordRooms server: the transport with the application's routes. Tests start one on port 0.
public final class WordRoomsServer: Sendable {
    public let options: ServerOptions
    public let transport: SocketServer
    /// The web client directory actually served, if any.
    public let webRoot: String?
    public let registry: RoomRegistry
    let lobby: SharedLobby?
    let application: WordRoomsApplication
    /// The operator dashboard's token: `--admin-token`, or one made at start.
    public let adminToken: AdminToken
    /// Whether `adminToken` was made here (then the start lines show it, once), not given by the operator.
    public let adminTokenGenerated: Bool

    /// Loads the word lists, binds the port and starts the event loops.
    public init(options: ServerOptions, rooms: RoomConfiguration = RoomConfiguration(), limits: GameLimits = GameLimits(),
                seed: UInt64? = nil, clock: @escaping @Sendable () -> Double = RoomRegistry.wallClock,
                disk: any JournalDisk = SystemDisk(),
                transport overrides: (inout TransportConfiguration) -> Void = { _ in })
        throws(StartError)
    {
        self.options = options
        let lists = try WordRoomsServer.loadWordLists(options)
        var journal: RoomJournal?
        if let directory = options.dataDirectory {
            do {
                journal = try RoomJournal(directory: directory, disk: disk, log: { Log.info("data: \($0)") })
            } catch {
                throw StartError(description: "\(error)")
            }
        }
        // Rooms run on the event loops (each loop is the executor of its rooms), next to the connections they serve.
        let executors = (0..<max(1, options.threads)).map { ThreadExecutor(hostedNamed: "rooms-\($0)") }
        let registry = RoomRegistry(lists: lists, configuration: rooms, seed: seed, shard: options.shard,
                                    executors: ThreadExecutorPool(executors: executors), journal: journal,
                                    clock: clock,
                                    audiences: { ConnectionAudience() })
        self.registry = registry
        lobby = options.redis.map { SharedLobby(address: $0, shard: options.shard, registry: registry) }
        var staticFiles: StaticFiles?
        if let directory = options.webDirectory ?? WordRoomsServer.defaultWebDirectory() {
            do {
                staticFiles = try StaticFiles(directory: directory)
            } catch {
                throw StartError(description: "cannot serve the web client from '\(directory)': \(error)")
            }
        }
        self.webRoot = staticFiles?.root
        var configuration = TransportConfiguration()
        configuration.host = options.host
        configuration.port = options.port
        configuration.threads = options.threads
        configuration.maxConnections = options.maxConnections
        configuration.maxOutboundBytes = options.maxOutboundBytes
        configuration.maxPendingPerAddress = options.maxPendingPerIP
        configuration.pendingIPv6PrefixBits = options.ipv6Prefix
        // A trusted proxy carries many clients on its connections and limits them itself; loopback is this machine.
        let proxies = (try? AddressRanges(options.trustedProxies)) ?? AddressRanges()
        configuration.isExemptFromPendingCap = { peer in peer.isLoopback || proxies.contains(peer.host) }
        overrides(&configuration)
        adminToken = options.adminToken ?? AdminToken.random()
        adminTokenGenerated = options.adminToken == nil
        application = WordRoomsApplication(options: options, staticFiles: staticFiles, registry: registry,
                                           limits: limits, lobby: lobby, adminToken: adminToken, clock: clock)
        do {
            transport = try SocketServer(configuration: configuration, application: application, executors: executors)
            application.transport.server = transport
        } catch {
            throw StartError(description: "cannot listen on \(options.host) port \(options.port): \(error)")
        }
        // Saved rooms are restored on the running loops before any client is served, so that a resuming player
        // finds their room. Clients that connect meanwhile are accepted and held: after a restart under load
        // they are thousands at once, more than the kernel's backlog keeps.
        transport.start(holdingConnections: journal != nil)
        if let journal {
            let restored = Blocking.run { await registry.restoreSavedRooms { Log.info("data: \($0)") } }
            let held = transport.serveHeldConnections()
            // What was skipped and set aside, on the same line: an operator must see at once that rooms may be
            // missing and which file to look at.
            let damage = journal.restoreReport.clauses
            if restored > 0 || !damage.isEmpty {
                let waited = held > 0 ? "\(held) connection\(held == 1 ? "" : "s") came meanwhile and are served now" : nil
                let clauses = damage + (waited.map { [$0] } ?? [])
                Log.info("restored \(restored) room\(restored == 1 ? "" : "s") from \(journal.directory)"
                         + clauses.map { "; " + $0 }.joined())
            }
        }
        application.admin.start()
    }

    public var port: Int { transport.port }

    /// The address to print for people: a browser cannot open `http://[::]:8080/`.
    public var url: String {
        if let publicURL = options.publicURL { return publicURL }
        let host: String
        switch options.host {
        case "::", "0.0.0.0": host = "localhost"
        case let address where address.contains(":"): host = "[\(address)]"
        case let address: host = address
        }
        return "http://\(host):\(port)/"
    }

    /// The dashboard's address for the start lines: with the token in the fragment (`#token=`, which browsers
    /// never send, so no proxy logs it) when it was made at start; without it when the operator chose it.
    public var adminURL: String {
        url + "admin" + (adminTokenGenerated ? "#token=\(adminToken.value)" : "")
    }

    /// What friends on the same network can open, for the start line: the machine's shareable addresses when the
    /// server listens on all of them (`::` takes IPv6 and IPv4, `0.0.0.0` IPv4), none with `--public-url` (that
    /// address replaces them) or a specific `--host`.
    public var networkURLs: [String] {
        options.networkAddresses.map { InterfaceAddresses.url($0, port: port) }
    }

    /// Stops accepting, saves every room (with `--data`), closes every client with 1001 and stops, within the
    /// transport's shutdown timeout. Logs how long the save and the closing took: together with the process's
    /// exit they are the time a restart keeps players waiting.
    public func shutdown() {
        application.stopping.store(true, ordering: .relaxed)
        // Before the save: a move played after it would be lost with the process (seen in the reconnect storm:
        // a quarter of a small run's members got the whole state back, their last moves gone).
        application.rooms.stopping.store(true, ordering: .releasing)
        application.admin.stop()
        transport.stopAccepting()
        let began = MonotonicClock.seconds()
        var saved = ""
        if let journal = registry.journal {
            let rooms = registry.roomsNow()
            // A snapshot that cannot be written leaves its rooms marked: `stop` appends them to the journal.
            journal.writeSnapshot(of: rooms.running, dormant: rooms.dormant)
            // While the rooms' threads still run, so that `stop` gets their last records at once.
            let outcome = journal.stop()
            saved = Self.savedClause(rooms: rooms.running.count + rooms.dormant.count, outcome: outcome,
                                     seconds: Self.seconds(since: began)) + ", "
        }
        let closing = MonotonicClock.seconds()
        transport.shutdown()
        Log.info("stopped: \(saved)closed the connections in \(Self.seconds(since: closing))")
        registry.executors.stop()
        lobby?.stop()
    }

    /// The stop line's account of the save: `saved 30 rooms in 0.12 s`, or what was not saved and why
    /// (`saved 1 of 30 rooms in 1.03 s; 29 not saved (No space left on device (ENOSPC))`).
    static func savedClause(rooms: Int, outcome: RoomJournal.SaveOutcome, seconds: String) -> String {
        guard outcome.unsaved > 0 else { return "saved \(rooms) room\(rooms == 1 ? "" : "s") in \(seconds)" }
        let saved = max(0, rooms - outcome.unsaved)
        let cause = outcome.cause.map { " (\($0))" } ?? " (their threads did not hand them over in time)"
        return "saved \(saved) of \(rooms) room\(rooms == 1 ? "" : "s") in \(seconds); \(outcome.unsaved) not saved\(cause)"
    }

    private static func seconds(since start: Double) -> String {
        String(format: "%.2f s", MonotonicClock.seconds() - start)
    }

    /// Why the server could not start, in words for the operator.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bundled lists, with the Snowman secrets replaced by `--words FILE` when given.
    static func loadWordLists(_ options: ServerOptions) throws(StartError) -> WordLists {
        var lists: WordLists
        do {
            lists = try WordLists.bundled()
        } catch {
            throw StartError(description: "cannot load the bundled word lists: \(error)")
        }
        if let path = options.wordsFile {
            let contents: String
            do {
                contents = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw StartError(description: "cannot read --words file '\(path)': \(error.localizedDescription)")
            }
            do {
                lists.secrets = try WordList.parse(contents: contents)
            } catch {
                throw StartError(description: "--words file '\(path)' has problems:\n\(error)")
            }
        }
        return lists
    }

    /// `web/` in the current directory when started from the repository root, else the package's own `web/`
    /// found from this source file's location (for `swift run` from elsewhere).
    static func defaultWebDirectory() -> String? {
        if isDirectory("web") { return "web" }
        var path = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        path.removeLast(3)  // Sources/WordRoomsServer/WordRoomsServer.swift
        let candidate = path.joined(separator: "/") + "/web"
        return isDirectory(candidate) ? candidate : nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
