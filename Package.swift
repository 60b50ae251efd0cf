// swift-tools-version:6.0
import Foundation
import PackageDescription

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz targets are built only when `WORDROOMS_FUZZ=1`, because they link libFuzzer's `main` and would break a
/// normal `swift build`. See `Tests/Fuzz/run-fuzzers.sh`.
let fuzzing = getenv("WORDROOMS_FUZZ").map { String(cString: $0) == "1" } ?? false

// Swift's dynamic exclusivity checks stay on in every build. Where callgrind showed their cost on the per-message
// path, the hot class properties opt out one by one with `@exclusivity(unchecked)`, each with the figure measured.

/// The games' documents (each game's protocol appendix, `Sources/WordGames/<Game>/PROTOCOL.md`, and
/// `ADDING-A-GAME.md`) are documentation, not resources, so the WordGames target excludes them; listed from the
/// folders so that a new game's folder needs no edit here.
let gameDocuments: [String] = {
    let games = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Sources/WordGames").path
    let paths = FileManager.default.subpaths(atPath: games) ?? []
    return paths.filter { $0.hasSuffix(".md") }.sorted()
}()

var products: [Product] = [
    .executable(name: "wordrooms", targets: ["wordrooms"]),
    .executable(name: "wordrooms-bots", targets: ["wordrooms-bots"]),
    .library(name: "WebSocket", targets: ["WebSocket"]),
    .library(name: "Transport", targets: ["Transport"]),
    .library(name: "WordGames", targets: ["WordGames"]),
]

var targets: [Target] = [
    // RFC 6455 framing, handshake, SHA-1, Base64, UTF-8 validation. Pure: no Foundation, no I/O.
    .target(name: "WebSocket"),
    // The process runtime shared by every module below: the one clock and the serial thread executors that run rooms,
    // the journal and the Redis client.
    .target(name: "Runtime", dependencies: ["CLinux"]),
    // The OS zlib (Debian: zlib1g-dev), for permessage-deflate; `.ci/run` installs it where it is missing.
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    // Raw deflate streams for RFC 7692: a compressor and a bounded decompressor over zlib. Knows nothing of frames.
    .target(name: "Deflate", dependencies: ["CZlib"]),
    // Linux headers Swift's Glibc module leaves out (epoll, eventfd).
    .target(name: "CLinux"),
    // Sockets, epoll event loops, connections, HTTP serving. Knows framing, never games.
    .target(name: "Transport", dependencies: ["WebSocket", "CLinux", "Runtime", "Deflate"]),
    // Game rules and word lists. Knows nothing of sockets.
    .target(name: "WordGames", exclude: gameDocuments, resources: [.copy("Resources/words")]),
    // JSON values, parser, writer, RFC 6901 pointers and RFC 6902 patches (diff and apply). Pure.
    .target(name: "JSON"),
    // Rooms as actors, the client protocol and sequenced JSON Patch state diffs. Knows games, not sockets or framing:
    // it hands the server encoded JSON messages, which the server frames.
    .target(name: "Rooms", dependencies: ["JSON", "WordGames", "Runtime"], exclude: ["PROTOCOL.md"]),
    // Wires transport, endpoints and rooms into a runnable server.
    .target(name: "WordRoomsServer", dependencies: ["WebSocket", "Transport", "Rooms", "WordGames", "JSON", "Runtime"]),
    .executableTarget(name: "wordrooms", dependencies: ["WordRoomsServer", "Transport", "Rooms"]),
    // The load tester: bots that play real games over our own client side of RFC 6455 and the event loops.
    .target(name: "Bots", dependencies: ["WebSocket", "Transport", "JSON", "WordGames", "Runtime"]),
    .executableTarget(name: "wordrooms-bots", dependencies: ["Bots"]),
    // The Autobahn|Testsuite fuzzingserver's client under test (Tests/Conformance/run-autobahn-client.sh): our client
    // side of RFC 6455 echoing every case. Not a product: only the conformance script builds it.
    .executableTarget(name: "autobahn-client", dependencies: ["Transport", "WebSocket", "Runtime"],
                      path: "Tests/Conformance/AutobahnClient"),

    // What the framing tests and the frame fuzzer share: feeding bytes in chunks, the parser's joined output.
    .target(name: "WebSocketTestSupport", dependencies: ["WebSocket"], path: "Tests/WebSocketTestSupport"),
    // The framing tests inflate with real zlib (Deflate) behind `MessageInflater`; the WebSocket module never links it.
    .testTarget(name: "WebSocketTests", dependencies: ["WebSocket", "WebSocketTestSupport", "Deflate"]),
    .testTarget(name: "TransportTests", dependencies: ["Transport", "WebSocket", "Runtime", "Deflate",
                                                       "WebSocketTestSupport"]),
    .testTarget(name: "IntegrationTests", dependencies: ["WebSocket", "Transport", "WordRoomsServer", "JSON", "Rooms", "WordGames", "Runtime", "Deflate",
                                                         "WordGamesTestSupport", "RoomsTestSupport"]),
    // What the word-list tests of every layer share: made-up words, as many as a limit needs.
    .target(name: "WordGamesTestSupport", path: "Tests/WordGamesTestSupport"),
    .testTarget(name: "WordGamesTests", dependencies: ["WordGames", "WordGamesTestSupport"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "WordGames"]),
    // What the room tests share: the registered games and their moves by name, and a test game with private views.
    .target(name: "RoomsTestSupport", dependencies: ["Rooms", "JSON", "WordGames"], path: "Tests/RoomsTestSupport"),
    .testTarget(name: "WordRoomsServerTests", dependencies: ["WordRoomsServer", "Transport", "WebSocket", "Rooms",
                                                             "RoomsTestSupport"]),
    .testTarget(name: "BotsTests", dependencies: ["Bots", "WordRoomsServer", "Transport", "JSON", "Runtime", "WordGames"]),
    .testTarget(name: "RoomsTests", dependencies: ["Rooms", "JSON", "WordGames", "Runtime", "RoomsTestSupport",
                                                   "WordGamesTestSupport"],
                exclude: ["Fixtures"]),
    .testTarget(name: "RuntimeTests", dependencies: ["Runtime"]),
    .testTarget(name: "DeflateTests", dependencies: ["Deflate"]),
]

if fuzzing {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzFrameParser", ["WebSocket", "WebSocketTestSupport"]),
        ("FuzzHandshake", ["WebSocket"]),
        ("FuzzRoomMessages", ["Rooms", "JSON", "WordGames", "Runtime"]),
        ("FuzzDeflate", ["WebSocket", "Deflate", "WebSocketTestSupport"]),
    ]
    for (name, dependencies) in fuzzTargets {
        products.append(.executable(name: name, targets: [name]))
        targets.append(.executableTarget(
            name: name,
            dependencies: dependencies,
            path: "Tests/Fuzz/\(name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ))
    }
}

let package = Package(
    name: "WordRooms",
    platforms: [.macOS(.v14)],
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
