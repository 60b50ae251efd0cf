#!/usr/bin/env bash
# Instructions per JSONValueEncoder.encode and JSONValueDecoder.decode of a view, counted by callgrind: a view of
# 11 members (strings, integers, a double, a Boolean, two optionals, two short arrays) holding an array of 8 structs
# of 3 members, as a game's public view might be. "manual" builds the same JSONValue by hand, for scale.
#
#   Tests/Bench/json-codec-callgrind.sh [encode] [decode] [manual]     # default: all three
#
# Builds a throwaway package (in a temporary directory) whose JSON target is this tree's Sources/JSON, in release
# with the same exclusivity flag as the real target, and counts (Ir at 2N - Ir at N) / N with N = 1000 so that
# start-up cancels out. Each figure includes freeing the value made. Needs valgrind (Debian: valgrind).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/bench"
ln -s "$root/Sources/JSON" "$work/Sources/JSON"
cat > "$work/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "jsonbench",
    targets: [
        .target(name: "JSON", swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        .executableTarget(name: "bench", dependencies: ["JSON"]),
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat > "$work/Sources/bench/main.swift" <<'EOF'
import JSON

struct PlayerView: Codable, Equatable {
    var name: String
    var points: Int
    var connected: Bool
}

struct BoardView: Codable, Equatable {
    var title: String
    var phase: String
    var round: Int
    var turn: Int
    var ratio: Double
    var open: Bool
    var host: String?
    var deadline: Int?
    var letters: [String]
    var scores: [Int]
    var players: [PlayerView]
}

let view = BoardView(
    title: "Room A", phase: "playing", round: 3, turn: 1, ratio: 0.5, open: true, host: "p0", deadline: nil,
    letters: ["a", "e", "s"], scores: [1, -2, 3],
    players: (0..<8).map { PlayerView(name: "p\($0)", points: $0 * 10, connected: $0 % 2 == 0) })

func manual(_ view: BoardView) -> JSONValue {
    var object = JSONObject()
    object.reserveCapacity(11)
    object["title"] = .string(view.title)
    object["phase"] = .string(view.phase)
    object["round"] = .integer(Int64(view.round))
    object["turn"] = .integer(Int64(view.turn))
    object["ratio"] = .number(view.ratio)
    object["open"] = .bool(view.open)
    if let host = view.host { object["host"] = .string(host) }
    if let deadline = view.deadline { object["deadline"] = .integer(Int64(deadline)) }
    object["letters"] = .array(view.letters.map { .string($0) })
    object["scores"] = .array(view.scores.map { .integer(Int64($0)) })
    object["players"] = .array(view.players.map { player in
        var member = JSONObject()
        member.reserveCapacity(3)
        member["name"] = .string(player.name)
        member["points"] = .integer(Int64(player.points))
        member["connected"] = .bool(player.connected)
        return .object(member)
    })
    return .object(object)
}

let mode = CommandLine.arguments[1]
let count = Int(CommandLine.arguments[2])!
let json = try JSONValueEncoder().encode(view)
let decoded = try JSONValueDecoder().decode(BoardView.self, from: json)
precondition(decoded == view)
precondition(json == manual(view))
var sink = 0
for _ in 0..<count {
    switch mode {
    case "encode": sink &+= try JSONValueEncoder().encode(view).objectValue?.count ?? 0
    case "decode": sink &+= try JSONValueDecoder().decode(BoardView.self, from: json).round
    default: sink &+= manual(view).objectValue?.count ?? 0
    }
}
print(sink)
EOF
(cd "$work" && swift build -c release >"$work/build.log" 2>&1) || { cat "$work/build.log"; exit 1; }
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/.build/release/bench" "$1" "$2" >/dev/null 2>&1
    callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ && !done { gsub(",", "", $1); print $1; done = 1 }'
}
for mode in "${@:-encode decode manual}"; do
    for each in $mode; do
        once=$(instructions "$each" 1000)
        twice=$(instructions "$each" 2000)
        echo "$each: $(( (twice - once) / 1000 )) instructions per call"
    done
done
