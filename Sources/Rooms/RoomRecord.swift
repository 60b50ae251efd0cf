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
    }

    var code: String
    var isPublic: Bool
    var game: GameSnapshot
    var members: [MemberRecord]
    var host: String?
    var chat: [ChatLine]
    var chatCounter: Int
    var memberCounter: Int
    var kicked: [String]
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
                .init(id: $0.id.rawValue, name: $0.name, token: $0.token.description, isSpectator: $0.isSpectator)
            },
            host: host?.rawValue, chat: chat, chatCounter: chatCounter, memberCounter: memberCounter,
            kicked: kicked.map(\.description), random: random, seq: seq,
            state: String(decoding: JSONWriter().serialize(state), as: UTF8.self), version: version)
    }

    /// Brings the room back: every member is away (their connections died with the old process) and has the
    /// usual grace period to resume from now; one patch records that, so clients resuming at the saved `seq`
    /// get exactly what changed.
    func restore(from record: RoomRecord, now: Double) throws {
        members = try record.members.map { saved in
            guard let token = ResumeToken(saved.token) else { throw RestoreError.badToken }
            return Member(id: PlayerID(saved.id), name: saved.name, token: token, isSpectator: saved.isSpectator,
                          link: nil, disconnectedAt: now)
        }
        host = record.host.map { PlayerID($0) }
        chat = record.chat
        chatCounter = record.chatCounter
        memberCounter = record.memberCounter
        kicked = record.kicked.compactMap { ResumeToken($0) }
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
