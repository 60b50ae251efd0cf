import Deflate
import Testing
import WebSocket
import WebSocketTestSupport
@testable import Transport

/// The header and payload of one complete server frame, as a client's parser that negotiated permessage-deflate
/// reads it.
func readServerFrame(_ frame: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> (header: FrameParser.Header, payload: [UInt8])
{
    let parsed = ParsedFrames(.client, frame, allowsCompression: true)
    if let error = parsed.error { throw error }
    #expect(parsed.ended == 1 && parsed.frames.count == 1, "one complete frame", sourceLocation: sourceLocation)
    let only = try #require(parsed.frames.first, sourceLocation: sourceLocation)
    return (only.header, only.payload)
}

@Suite struct DeflateStreamTests {
    private let patch = Array(#"[{"op":"replace","path":"/turn","value":"p2"}]"#.utf8)

    @Test func messagesAreNumberedAndOnlyTheFirstStartsFresh() {
        let stream = DeflateStream(windowBits: 11, memoryLevel: 1)
        let frames = (0..<4).map { _ in stream.frame(text: patch) }
        #expect(frames.map(\.index) == [0, 1, 2, 3])
        #expect(frames.map(\.startsFresh) == [true, false, false, false])
        #expect(Set(frames.map(\.streamID)).count == 1)
        #expect(frames.allSatisfy { $0.isCompressed && $0.windowBits == 11 })
        #expect(DeflateStream(windowBits: 11, memoryLevel: 1).frame(text: patch).streamID != frames[0].streamID,
                "every stream has its own id")
    }

    @Test func restartMakesTheNextMessageAFreshStart() {
        let stream = DeflateStream(windowBits: 11, memoryLevel: 1)
        _ = stream.frame(text: patch)
        _ = stream.frame(text: patch)
        stream.restart()
        let fresh = stream.frame(text: patch)
        #expect(fresh.startsFresh)
        #expect(fresh.index == 2, "numbering goes on")
        #expect(!stream.frame(text: patch).startsFresh)
    }

    @Test func aRaisedRestartRequestMakesTheNextMessageAFreshStart() {
        let stream = DeflateStream(windowBits: 11, memoryLevel: 1)
        let first = stream.frame(text: patch)
        _ = stream.frame(text: patch)
        first.restartRequest.raise()  // what a connection out of step does when it gets a message plain
        #expect(stream.frame(text: patch).startsFresh)
        #expect(!stream.frame(text: patch).startsFresh)
    }

    @Test func bothFormsAreTextFramesOfTheSameMessage() throws {
        let stream = DeflateStream(windowBits: 11, memoryLevel: 1)
        let frame = stream.frame(text: patch)
        #expect(frame.plain == FrameEncoder.encode(.text, payload: patch))
        let (header, payload) = try readServerFrame(frame.compressed)
        #expect(header.opcode == .text && header.fin && header.compressed)
        #expect(try Inflater(windowBits: 11).decompress(payload, maxBytes: 1 << 16, resetContext: false) == patch)
    }

    /// The invariant, with real zlib: three receivers join the stream at different points (one when the room
    /// restarts the stream for it, one unannounced, one from the start) and one misses a message; each gets
    /// exactly the form the rule chooses, inflates what came compressed in one inflater kept all along, and
    /// reads every message exactly.
    @Test func receiversJoiningAtDifferentPointsReadEveryMessage() throws {
        let stream = DeflateStream(windowBits: 11, memoryLevel: 1)
        struct Receiver {
            let name: String
            let joinsAt: Int
            /// The stream restarts for it when it joins, as a room does for a member.
            let announced: Bool
            let misses: Set<Int>
            let compression: ConnectionCompression
            let inflater: Inflater
            var plain: [Int] = []
            var compressedBytes = 0
        }
        func receiver(_ name: String, joinsAt: Int, announced: Bool, misses: Set<Int> = []) throws -> Receiver {
            Receiver(name: name, joinsAt: joinsAt, announced: announced, misses: misses,
                     compression: try negotiatedConnection(), inflater: try Inflater(windowBits: 11))
        }
        var receivers = [
            try receiver("from the start", joinsAt: 0, announced: true),
            try receiver("announced", joinsAt: 10, announced: true, misses: [30]),
            try receiver("unannounced", joinsAt: 20, announced: false),
        ]
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let messages = (0..<40).map { number in
            Array(#"{"type":"patch","seq":\#(number),"ops":[{"op":"replace","path":"/snowman/turn","value":"p\#(number % 4)"},"#.utf8)
                + Array(#"{"op":"add","path":"/snowman/guessed/-","value":"\#(letters[number % 26])"}]}"#.utf8)
        }
        var unreadableAlone = 0
        var plainBytes = 0
        for (number, message) in messages.enumerated() {
            if receivers.contains(where: { $0.joinsAt == number && $0.announced }) { stream.restart() }
            let frame = stream.frame(text: message)
            plainBytes += frame.plain.count
            if !frame.startsFresh,
               (try? Inflater(windowBits: 11).decompress(readServerFrame(frame.compressed).payload, maxBytes: 1 << 16,
                                                          resetContext: false)) != message {
                unreadableAlone += 1
            }
            for index in receivers.indices where receivers[index].joinsAt <= number {
                guard !receivers[index].misses.contains(number) else { continue }
                let bytes = receivers[index].compression.wireForm(of: frame)
                let (header, payload) = try readServerFrame(bytes)
                let text: [UInt8]
                if header.compressed {
                    #expect(bytes == frame.compressed)
                    receivers[index].compressedBytes += bytes.count
                    text = try receivers[index].inflater.decompress(payload, maxBytes: 1 << 16, resetContext: false)
                } else {
                    #expect(bytes == frame.plain)
                    receivers[index].plain.append(number)
                    text = payload
                }
                #expect(text == message, "\(receivers[index].name), message \(number)")
            }
        }
        // Plain exactly where the rule says: the message after a gap, and the first one of an unannounced join;
        // each of those raised a restart request, so the very next message was a fresh start they took.
        #expect(receivers[0].plain == [])
        #expect(receivers[1].plain == [31])
        #expect(receivers[2].plain == [20])
        // And the test means something: most messages need the window, and compression paid.
        #expect(unreadableAlone > 20, "messages that refer back to earlier ones")
        #expect(receivers[0].compressedBytes * 3 < plainBytes)
    }
}
