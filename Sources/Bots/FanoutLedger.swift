/// One `fanout` client's own messages: numbers them, and accounts for each one the server sends back to it.
///
/// The server relays a member's messages to it in the order it sent them (one TCP connection, one topic), so an
/// own message that comes back ahead of an earlier one means the earlier one is lost. Room-mates' messages are
/// not the ledger's business: only the sender times a message.
struct FanoutLedger: Equatable {
    /// Messages numbered so far; the next one gets this number.
    private(set) var sent = 0
    /// Own messages that came back.
    private(set) var returned = 0
    /// Own messages skipped by a later one that came back first.
    private(set) var lost = 0

    /// Own messages neither back nor known lost.
    var inFlight: Int { sent - returned - lost }

    /// What an own message coming back means.
    enum Return: Equatable {
        /// The oldest message in flight, as expected; `latency` in nanoseconds when it is timed.
        case inOrder(latency: UInt64?)
        /// A later message: the `missing` ones sent before it never came back.
        case afterGap(missing: Int, latency: UInt64?)
        /// A number never sent or already back: a duplicate or a corrupted relay.
        case unexpected
    }

    /// The next message's sequence number (0, 1, 2...).
    mutating func numberNext() -> Int {
        defer { sent += 1 }
        return sent
    }

    /// Accounts for an own message that came back at `now`.
    ///
    /// - Parameters:
    ///   - payload: The message as read.
    ///   - now: Monotonic nanoseconds when it was read.
    ///   - timingFrom: Messages sent before this (the warm-up) are counted but not timed.
    /// - Returns: Whether it came in order, and its round trip when timed.
    mutating func record(_ payload: FanoutPayload, now: UInt64, timingFrom: UInt64) -> Return {
        let expected = returned + lost
        guard payload.sequence >= expected, payload.sequence < sent else { return .unexpected }
        let latency = payload.sentAt >= timingFrom && now >= payload.sentAt ? now - payload.sentAt : nil
        returned += 1
        let missing = payload.sequence - expected
        guard missing == 0 else {
            lost += missing
            return .afterGap(missing: missing, latency: latency)
        }
        return .inOrder(latency: latency)
    }

    /// The connection closed: what was in flight will not come back (the caller counts it).
    ///
    /// - Returns: The messages that were in flight.
    mutating func connectionClosed() -> Int {
        let abandoned = inFlight
        lost += abandoned
        return abandoned
    }

    /// When the message of interval `index` leaves: at a random point of that interval, so that the members of
    /// a room, and the rooms, send at times spread over each interval instead of together.
    ///
    /// - Parameters:
    ///   - index: 0 for the first interval after the connection opened.
    ///   - start: Monotonic nanoseconds when interval 0 began.
    ///   - interval: Nanoseconds per interval, 1 / `--rate`.
    ///   - unit: A random number in 0..<1.
    static func sendTime(ofInterval index: Int, from start: UInt64, interval: UInt64, unit: Double) -> UInt64 {
        start + UInt64(index) * interval + UInt64(unit * Double(interval))
    }
}
