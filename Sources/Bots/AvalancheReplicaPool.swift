import JSON

/// The versions of one room's state that its avalanche bots hold, so that bots holding the same version and
/// reading the same patch share one application of it instead of eight.
///
/// Each bot still rebuilds its room from what it was sent: a version is a state and the way it came about (a
/// welcome or snapshot, or a patch's bytes applied to a parent version). Two bots of the same version reading
/// the same bytes at the same seq would compute the same result, so the second takes the first's result
/// (shared storage: `JSONValue`'s arrays and objects are copy on write). A bot whose state went another way (a
/// resume that replayed the wrong patches onto what it had) holds another version and computes its own, which
/// is what the final check must see. A welcome or snapshot joins the version with an equal state at its seq.
///
/// Used on the room's loop thread only.
struct AvalancheReplicaPool {
    struct Version {
        let id: Int
        let seq: Int
        let state: JSONValue
        /// The version this one was patched from, and the patch's bytes; nil for a welcome or snapshot.
        let parent: Int?
        let patch: [UInt8]?
    }

    /// Newest last; a few, as bots of one room read within a few seqs of each other.
    private var recent: [Version] = []
    private var nextID = 1
    static let capacity = 16

    /// The version made by applying `patch` (its bytes) to version `parent` at `seq`, if a bot made it already.
    func patched(from parent: Int, seq: Int, patch: [UInt8]) -> Version? {
        recent.last { $0.parent == parent && $0.seq == seq && $0.patch == patch }
    }

    /// Records the state a bot computed by applying `patch` to `parent`; returns its version's id.
    mutating func record(patched state: JSONValue, seq: Int, from parent: Int, patch: [UInt8]) -> Int {
        add(Version(id: takeID(), seq: seq, state: state, parent: parent, patch: patch))
    }

    /// The version of a whole state given at `seq` (a welcome or snapshot): an existing one with an equal
    /// state, or a new one.
    mutating func given(_ state: JSONValue, seq: Int) -> Version {
        if let known = recent.last(where: { $0.seq == seq && $0.state == state }) { return known }
        let version = Version(id: takeID(), seq: seq, state: state, parent: nil, patch: nil)
        _ = add(version)
        return version
    }

    private mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func add(_ version: Version) -> Int {
        if recent.count == Self.capacity { recent.removeFirst() }
        recent.append(version)
        return version.id
    }
}
