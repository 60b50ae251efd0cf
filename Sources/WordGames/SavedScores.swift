/// Points by player as the data directory keeps them: an object of ids and points, ids in order (so that the same
/// game saves the same bytes). Older journals wrote the dictionary as Swift's Codable does for keys that are not
/// strings, an array of ids and points one after the other; both are read.
struct SavedScores: Codable {
    var scores: [PlayerID: Int]

    init(_ scores: [PlayerID: Int]) {
        self.scores = scores
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (player, points) in scores.sorted(by: { $0.key < $1.key }) {
            try container.encode(points, forKey: Key(stringValue: player.rawValue))
        }
    }

    init(from decoder: any Decoder) throws {
        scores = [:]
        if let object = try? decoder.container(keyedBy: Key.self) {
            for key in object.allKeys {
                scores[PlayerID(key.stringValue)] = try object.decode(Int.self, forKey: key)
            }
            return
        }
        var pairs = try decoder.unkeyedContainer()
        while !pairs.isAtEnd {
            let player = try pairs.decode(String.self)
            guard !pairs.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: pairs, debugDescription: "an id without its points")
            }
            scores[PlayerID(player)] = try pairs.decode(Int.self)
        }
    }
}
