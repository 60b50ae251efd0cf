import JSON

// Types shared by JSONValueEncoderTests and JSONValueDecoderTests, shaped like a game's moves and views.

/// A view with one member of each common kind, in a declared (not alphabetical) order.
struct BoardView: Codable, Equatable {
    var title: String
    var round: Int
    var ratio: Double
    var open: Bool
    var host: String?
    var letters: [String]
    var scores: [Int]
    var players: [PlayerView]
}

struct PlayerView: Codable, Equatable {
    var name: String
    var points: Int
}

/// Swift's synthesized Codable for enums with associated values: `{"case": {"label" or "_0": value}}`.
indirect enum Move: Codable, Equatable {
    case guess(letter: String)
    case place(Int, Int)
    case pass
    case nested(Move?)
}

/// Optional members: `encodeIfPresent` leaves a nil out, `encode` writes `null`.
struct Optionals: Codable, Equatable {
    var skipped: Int?
    var written: Int?

    enum CodingKeys: String, CodingKey {
        case skipped
        case written
    }

    init(skipped: Int?, written: Int?) {
        self.skipped = skipped
        self.written = written
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        skipped = try container.decodeIfPresent(Int.self, forKey: .skipped)
        written = try container.decode(Int?.self, forKey: .written)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(skipped, forKey: .skipped)
        try container.encode(written, forKey: .written)
    }
}

/// Written by hand with every kind of container: a nested keyed and unkeyed container, a super encoder, and
/// members encoded after the nested containers were handed out, so their places are checked.
struct Layered: Codable, Equatable {
    var id: Int
    var x: Int
    var y: Int
    var tags: [String]
    var base: PlayerView
    var last: Bool

    enum CodingKeys: String, CodingKey {
        case id
        case position
        case tags
        case last
    }

    enum PositionKeys: String, CodingKey {
        case x
        case y
    }

    init(id: Int, x: Int, y: Int, tags: [String], base: PlayerView, last: Bool) {
        self.id = id
        self.x = x
        self.y = y
        self.tags = tags
        self.base = base
        self.last = last
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        var position = container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        var tagList = container.nestedUnkeyedContainer(forKey: .tags)
        try base.encode(to: container.superEncoder())
        try container.encode(last, forKey: .last)
        // Written after the parent went on: must still land in their places.
        try position.encode(x, forKey: .x)
        try position.encode(y, forKey: .y)
        for tag in tags {
            try tagList.encode(tag)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        let position = try container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        x = try position.decode(Int.self, forKey: .x)
        y = try position.decode(Int.self, forKey: .y)
        var tagList = try container.nestedUnkeyedContainer(forKey: .tags)
        var tags: [String] = []
        while !tagList.isAtEnd {
            tags.append(try tagList.decode(String.self))
        }
        self.tags = tags
        base = try PlayerView(from: container.superDecoder())
        last = try container.decode(Bool.self, forKey: .last)
    }
}

/// An unkeyed container holding nested containers and nulls, written by hand.
struct Row: Codable, Equatable {
    var cells: [Int?]
    var pairs: [[String]]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        var cellList = container.nestedUnkeyedContainer()
        var pairObject = container.nestedContainer(keyedBy: CodingPathKeyForTests.self)
        for cell in cells {
            if let cell { try cellList.encode(cell) } else { try cellList.encodeNil() }
        }
        for (index, pair) in pairs.enumerated() {
            try pairObject.encode(pair, forKey: CodingPathKeyForTests(stringValue: "p\(index)"))
        }
    }

    init(cells: [Int?], pairs: [[String]]) {
        self.cells = cells
        self.pairs = pairs
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var cellList = try container.nestedUnkeyedContainer()
        var cells: [Int?] = []
        while !cellList.isAtEnd {
            cells.append(try cellList.decodeNil() ? nil : cellList.decode(Int.self))
        }
        let pairObject = try container.nestedContainer(keyedBy: CodingPathKeyForTests.self)
        self.cells = cells
        pairs = try pairObject.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
            try pairObject.decode([String].self, forKey: $0)
        }
    }
}

struct CodingPathKeyForTests: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Numbers of every width.
struct Numbers: Codable, Equatable {
    var int8: Int8
    var uint16: UInt16
    var int64: Int64
    var uint64: UInt64
    var float: Float
    var double: Double
}

/// The type-erased text of a coding path, for comparing paths: string keys as they are, indices as `[n]`.
func pathText(_ path: [any CodingKey]) -> String {
    path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(separator: ".")
}

extension BoardView {
    static let sample = BoardView(
        title: "Room \"A\"", round: 3, ratio: 0.5, open: true, host: nil, letters: ["a", "é"], scores: [1, -2],
        players: (0..<8).map { PlayerView(name: "p\($0)", points: $0 * 10) })
}

/// A value that fails both ways with an error of its own, neither an `EncodingError` nor a `DecodingError`: the
/// coders must wrap it, keeping it as the context's underlying error.
struct Refusing: Codable {
    struct Refusal: Error {}

    init() {}
    init(from decoder: any Decoder) throws { throw Refusal() }
    func encode(to encoder: any Encoder) throws { throw Refusal() }
}
