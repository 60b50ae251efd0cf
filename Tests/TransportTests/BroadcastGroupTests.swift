import Deflate
import Synchronization
import Testing
import WebSocket
@testable import Transport

/// A group's member without a socket: it takes each stream message as a connection of its terms would
/// (`Connection.send(_: StreamFrame)`), and reads what it got as a browser does, with one inflater kept all along.
final class RecordingReceiver: BroadcastReceiver, @unchecked Sendable {
    private static let ids = Atomic<UInt64>(100)
    let id = RecordingReceiver.ids.add(1, ordering: .relaxed).newValue
    /// The connection's compression state, when it negotiated a shared stream.
    let compression: ConnectionCompression?
    private(set) var frames: [[UInt8]] = []
    private let inflater = try! Inflater(windowBits: 11)

    init(compressed: Bool) throws {
        compression = compressed ? try negotiatedConnection() : nil
    }

    func send(frame: [UInt8]) {
        frames.append(frame)
    }

    func send(_ frame: StreamFrame) {
        if let compression, compression.canFollow(frame) {
            frames.append(compression.wireForm(of: frame))
        } else {
            frames.append(frame.plain)
        }
    }

    /// Every frame received since the last call: whether it came compressed, and its text.
    func read(sourceLocation: SourceLocation = #_sourceLocation) throws -> [(compressed: Bool, text: String)] {
        defer { frames.removeAll() }
        return try frames.map { frame in
            let (header, payload) = try readServerFrame(frame, sourceLocation: sourceLocation)
            #expect(header.opcode == .text && header.fin, sourceLocation: sourceLocation)
            let bytes = header.compressed
                ? try inflater.decompress(payload, maxBytes: 1 << 16, resetContext: false) : payload
            return (header.compressed, String(decoding: bytes, as: UTF8.self))
        }
    }
}

@Suite struct BroadcastGroupTests {
    private func group() -> BroadcastGroup {
        BroadcastGroup(windowBits: 11, memoryLevel: 1)
    }

    private func patch(_ seq: Int) -> String {
        #"{"type":"patch","seq":\#(seq),"ops":[{"op":"replace","path":"/game/turn","value":"p\#(seq % 3)"}]}"#
    }

    private func publish(_ group: BroadcastGroup, _ seqs: ClosedRange<Int>, except: UInt64? = nil) -> [String] {
        seqs.map { seq in
            group.publish(Array(patch(seq).utf8), except: except)
            return patch(seq)
        }
    }

    @Test func plainAndCompressedMembersReadTheSameMessages() throws {
        let group = group()
        let plain = try (0..<2).map { _ in try RecordingReceiver(compressed: false) }
        let compressed = try (0..<2).map { _ in try RecordingReceiver(compressed: true) }
        for member in plain { group.join(member, compressed: false) }
        for member in compressed { group.join(member, compressed: true) }
        let sent = publish(group, 1...6)
        for member in plain {
            let read = try member.read()
            #expect(read.map(\.text) == sent)
            #expect(read.allSatisfy { !$0.compressed })
        }
        for member in compressed {
            let read = try member.read()
            #expect(read.map(\.text) == sent)
            #expect(read.allSatisfy { $0.compressed }, "in step from the first message")
        }
    }

    @Test func eachPublishIsCompressedOnceForAllCompressedMembers() throws {
        let group = group()
        let members = try (0..<5).map { _ in try RecordingReceiver(compressed: true) }
        for member in members { group.join(member, compressed: true) }
        _ = publish(group, 1...4)
        #expect(group.compressions == 4)
        let frames = members.map { $0.frames }
        #expect(frames.allSatisfy { $0 == frames[0] }, "the same bytes to every member")
    }

    @Test func nothingIsCompressedWithoutACompressedRecipient() throws {
        let group = group()
        let plain = try RecordingReceiver(compressed: false)
        let compressed = try RecordingReceiver(compressed: true)
        group.join(plain, compressed: false)
        _ = publish(group, 1...3)
        group.join(compressed, compressed: true)
        _ = publish(group, 4...4, except: compressed.id)
        #expect(group.compressions == 0, "the only compressed member was left out")
        #expect(try plain.read().count == 4)
        #expect(compressed.frames.isEmpty)
    }

    @Test func aMemberThatLeftGetsNothingAndJoiningTwiceKeepsOneEntry() throws {
        let group = group()
        let ana = try RecordingReceiver(compressed: true)
        let bob = try RecordingReceiver(compressed: false)
        group.join(ana, compressed: true)
        group.join(bob, compressed: false)
        group.join(bob, compressed: false)
        #expect(group.count == 2)
        _ = publish(group, 1...2)
        group.leave(ana.id)
        let sent = publish(group, 3...4)
        #expect(group.count == 1)
        #expect(try ana.read().count == 2)
        #expect(try bob.read().map(\.text).suffix(2) == sent)
    }

    /// A joiner is left out of the message its join causes (it gets the state another way), and the first
    /// message it receives starts the stream afresh: it reads it compressed without the ones before, and the
    /// members already there stay in step.
    @Test func aJoinersFirstMessageRestartsTheStream() throws {
        let group = group()
        let ana = try RecordingReceiver(compressed: true)
        group.join(ana, compressed: true)
        var sent = publish(group, 1...3)
        let cleo = try RecordingReceiver(compressed: true)
        group.join(cleo, compressed: true)
        sent += publish(group, 4...4, except: cleo.id)
        let restartAt = group.compressions
        sent += publish(group, 5...7)
        let anaRead = try ana.read()
        #expect(anaRead.map(\.text) == sent)
        #expect(anaRead.allSatisfy { $0.compressed })
        let cleoRead = try cleo.read()
        #expect(cleoRead.map(\.text) == Array(sent.suffix(3)))
        #expect(cleoRead.allSatisfy { $0.compressed }, "the fresh start came with Cleo's first message")
        #expect(restartAt == 4)
    }

    /// Without the restart a joiner would get a message that refers to the window it never had: the group makes
    /// the restart on the message the joiner first receives, not on one it was left out of.
    @Test func theRestartWaitsForTheJoinersFirstMessage() throws {
        let group = group()
        let ana = try RecordingReceiver(compressed: true)
        group.join(ana, compressed: true)
        _ = publish(group, 1...2)
        let cleo = try RecordingReceiver(compressed: true)
        group.join(cleo, compressed: true)
        _ = publish(group, 3...3, except: cleo.id)
        _ = publish(group, 4...4)
        let frames = try cleo.read()
        #expect(frames.count == 1 && frames[0].compressed && frames[0].text == patch(4))
    }
}
