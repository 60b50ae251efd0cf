import Foundation
import JSON
import WordGames

/// A room as saved in the data directory: everything needed to bring it back after a restart, including the
/// secret word (the data directory is the server's own) and the players' resume tokens.
struct RoomRecord: Codable, Sendable {
    enum GameSnapshot: Codable, Sendable {
        case snowman(SnowmanGame.Snapshot)
        case scramble(ScrambleGame.Snapshot)
    }

    struct MemberRecord: Codable, Sendable {
        var id: String
        var name: String
        var token: String
        var isSpectator: Bool
        /// Absent in records saved before bans by browser id.
        var client: String?
    }

    struct BanRecord: Codable, Sendable {
        var id: String
        var name: String
        var token: String
        var client: String?
    }

    var code: String
    var isPublic: Bool
    var game: GameSnapshot
    var members: [MemberRecord]
    var host: String?
    var chat: [ChatLine]
    var chatCounter: Int
    var memberCounter: Int
    /// Tokens of removed players, as records saved before bans had names (still written, for older servers).
    var kicked: [String]
    var bans: [BanRecord]?
    var banCounter: Int?
    var locked: Bool?
    var random: SplitMix64
    var seq: Int
    /// The state JSON at `seq`, as clients last saw it, so a client resuming at `seq` stays exact.
    var state: String
    /// Increases with every record written for this room; on replay the highest wins.
    var version: Int
}

extension Room {
    /// This room as a record to save.
    func record(version: Int) -> RoomRecord {
        let gameSnapshot: RoomRecord.GameSnapshot = switch game {
        case .snowman(let snowman): .snowman(snowman.snapshot)
        case .scramble(let scramble): .scramble(scramble.snapshot)
        }
        return RoomRecord(
            code: code.rawValue, isPublic: isPublic, game: gameSnapshot,
            members: members.map {
                .init(id: $0.id.rawValue, name: $0.name, token: $0.token.description, isSpectator: $0.isSpectator,
                      client: $0.client?.rawValue)
            },
            host: host?.rawValue, chat: chat, chatCounter: chatCounter, memberCounter: memberCounter,
            kicked: bans.map(\.token.description),
            bans: bans.map {
                .init(id: $0.id, name: $0.name, token: $0.token.description, client: $0.client?.rawValue)
            },
            banCounter: banCounter, locked: locked, random: random, seq: seq,
            state: String(decoding: JSONWriter().serialize(state), as: UTF8.self), version: version)
    }

    /// Brings the room back: every member is away (their connections died with the old process) and has the
    /// usual grace period to resume from now; one patch records that, so clients resuming at the saved `seq`
    /// get exactly what changed.
    func restore(from record: RoomRecord, now: Double) throws {
        members = try record.members.map { saved in
            guard let token = ResumeToken(saved.token) else { throw RestoreError.badToken }
            return Member(id: PlayerID(saved.id), name: saved.name, token: token,
                          client: saved.client.flatMap(ClientID.init), isSpectator: saved.isSpectator,
                          link: nil, disconnectedAt: now)
        }
        host = record.host.map { PlayerID($0) }
        chat = record.chat
        chatCounter = record.chatCounter
        memberCounter = record.memberCounter
        if let saved = record.bans {
            bans = saved.compactMap { ban in
                ResumeToken(ban.token).map {
                    Ban(id: ban.id, name: ban.name, token: $0, client: ban.client.flatMap(ClientID.init))
                }
            }
            banCounter = record.banCounter ?? bans.count
        } else {
            bans = record.kicked.compactMap(ResumeToken.init).enumerated().map { index, token in
                Ban(id: "b\(index + 1)", name: "Removed player", token: token, client: nil)
            }
            banCounter = bans.count
        }
        locked = record.locked ?? false
        random = record.random
        seq = record.seq
        state = try JSONParser().parse(record.state)
        publish(now: now)
        scheduleTimer(now: now)
    }

    enum RestoreError: Error {
        case badToken
    }
}

extension RoomGame {
    init(_ snapshot: RoomRecord.GameSnapshot, lists: WordLists) throws {
        switch snapshot {
        case .snowman(let saved):
            self = .snowman(try SnowmanGame(snapshot: saved, words: lists.secrets))
        case .scramble(let saved):
            self = .scramble(try ScrambleGame(snapshot: saved, lexicon: lists.lexicon, roots: lists.roots))
        }
    }
}
