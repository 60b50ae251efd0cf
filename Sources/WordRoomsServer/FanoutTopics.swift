import Synchronization
import Transport

/// The topics of `/fanout/NAME` (`--bench-fanout`): which connections listen to which name.
///
/// Shared by every event loop: a connection joins on its own loop thread when it opens and leaves when it closes.
/// A topic lives while it has members; the registry's lock is taken on those two events only, never per message.
final class FanoutTopics: Sendable {
    private let topics = Mutex<[String: FanoutTopic]>([:])

    /// Adds `member` to the topic `name`, creating the topic when it has no members yet.
    ///
    /// - Returns: The topic, for the connection to keep (its messages go there without a look-up).
    func join(_ name: String, member: ConnectionHandle) -> FanoutTopic {
        topics.withLock { topics in
            let topic = topics[name] ?? FanoutTopic(name: name)
            topics[name] = topic
            topic.add(member)
            return topic
        }
    }

    /// Removes `member` from `topic`, and the topic once nobody is left in it.
    func leave(_ topic: FanoutTopic, member: ConnectionHandle) {
        topics.withLock { topics in
            if topic.remove(member) == 0, topics[topic.name] === topic {
                topics[topic.name] = nil
            }
        }
    }

    /// Topics with at least one member.
    var count: Int { topics.withLock { $0.count } }
}

/// One `/fanout/NAME` topic: its members, and the sending of one frame to all of them.
///
/// Members change under `FanoutTopics`' lock (which nests this one); a broadcast takes only this topic's lock,
/// for as long as it takes to copy the member list (a reference-count increment: the list is copy-on-write).
final class FanoutTopic: Sendable {
    let name: String
    private let state = Mutex(Members())

    private struct Members {
        var handles: [ConnectionHandle] = []
        /// How many members each event loop holds, by loop index (`ConnectionHandle.id >> 56`): a topic whose
        /// members are all on one loop sends to each directly; others hand the frame to each loop once.
        var perLoop: [Int: Int] = [:]
    }

    init(name: String) {
        self.name = name
    }

    /// The event loop's index in a connection id (`ConnectionHandle.id`'s top byte).
    private static func loopIndex(_ handle: ConnectionHandle) -> Int { Int(handle.id >> 56) }

    func add(_ member: ConnectionHandle) {
        state.withLock { members in
            members.handles.append(member)
            members.perLoop[Self.loopIndex(member), default: 0] += 1
        }
    }

    /// - Returns: The members left.
    func remove(_ member: ConnectionHandle) -> Int {
        state.withLock { members in
            guard let index = members.handles.firstIndex(of: member) else { return members.handles.count }
            members.handles.remove(at: index)
            let loop = Self.loopIndex(member)
            members.perLoop[loop, default: 1] -= 1
            if members.perLoop[loop] == 0 { members.perLoop[loop] = nil }
            return members.handles.count
        }
    }

    var memberCount: Int { state.withLock { $0.handles.count } }

    /// Queues `frame`, an encoded server frame, to every member: the same bytes for all, no copy per member.
    ///
    /// - Parameters:
    ///   - frame: The frame to send.
    ///   - sender: The connection it came from, on whose loop thread this runs.
    func broadcast(frame: [UInt8], from sender: ConnectionHandle) {
        let senderLoop = Self.loopIndex(sender)
        let (handles, onSenderLoop) = state.withLock { members in
            (members.handles, members.perLoop.count == 1 && members.perLoop[senderLoop] != nil)
        }
        if onSenderLoop {
            // Every member on the sender's loop: each send is queued at once (`EventLoop.submit` on the loop's
            // own thread), without grouping the members by loop first.
            for handle in handles { handle.send(frame: frame) }
        } else {
            ConnectionHandle.broadcast(frame: frame, to: handles)
        }
    }
}
