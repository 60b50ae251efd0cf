/// Turns each new value of a view (a game's public view, say) into the JSON Patch operations (RFC 6902) that take
/// a client from the JSON of the previous value to the JSON of the new one.
///
/// The view is any `Encodable & Equatable` value that encodes as an object. The differ keeps the previous value
/// of each of its members, and on an update looks at each member by itself:
/// - a member equal to the one kept (`==`, which for an unchanged array is a pointer comparison) costs nothing:
///   it is neither encoded nor diffed;
/// - a list of `Equatable` elements is trimmed of its common prefix and suffix by comparing elements, and only
///   the elements in between are encoded: appending a guess, prepending a found word or changing one score line
///   encodes that one element;
/// - any other member that changed is encoded, and diffed against the JSON of the member kept.
///
/// Nothing of this is visible to the view's type: it only declares what it shows. Debug and release builds take
/// the same path.
public struct JSONViewDiffer<View: Encodable & Equatable>: @unchecked Sendable {
    /// The members as of the last update, in encoding order. A class, so that encoding fills it in place; a
    /// differ is owned by one room and never shared across threads.
    private var members: ViewMembers?
    private let encoder = JSONValueEncoder(writesNilMembers: true)

    /// A differ that has seen no view yet: the first `update` records the view and returns no operations.
    public init() {}

    /// Whether an update has recorded a view.
    public var hasView: Bool { members != nil }

    /// The JSON of `view`, as a client that has it holds it.
    ///
    /// - Throws: `EncodingError` when the view does not encode (a non-finite number, say).
    public func json(of view: View) throws(EncodingError) -> JSONValue {
        try encoder.encode(view)
    }

    /// Records `view` as what clients have and returns the operations from the previous view's JSON to this one's,
    /// every path starting with `base`. The first update (and the first after `forget`) returns none.
    ///
    /// - Throws: `EncodingError` when the view does not encode; the differ then forgets what it kept, so that the
    ///   next update starts afresh.
    public mutating func update(to view: View, at base: [String]) throws(EncodingError) -> [JSONPatch.Operation] {
        let recording = members == nil
        // A copy of the differ shares what it keeps until one of them updates.
        if !recording, !isKnownUniquelyReferenced(&members!) { members = members!.copy() }
        let kept = members ?? ViewMembers()
        let encoder = ViewDiffEncoder(members: kept, base: base, recording: recording, encoder: encoder)
        do {
            try view.encode(to: encoder)
            if !recording { try encoder.checkComplete() }
        } catch {
            members = nil
            if let error = error as? EncodingError { throw error }
            throw EncodingError.invalidValue(view, EncodingError.Context(codingPath: [],
                                                                        debugDescription: "\(error)"))
        }
        members = kept
        return recording ? [] : encoder.operations
    }

    /// Forgets the view kept: the next update records afresh.
    public mutating func forget() {
        members = nil
    }
}

/// A view's members as last encoded, by position: what `ViewDiffEncoder` compares the next encoding against.
final class ViewMembers {
    // Unchecked: read for every member of every update; see `ViewDiffEncoder` for the measured cost.
    @exclusivity(unchecked) var keys: [String] = []
    @exclusivity(unchecked) var memos: [ViewMemberMemo] = []

    func copy() -> ViewMembers {
        let copy = ViewMembers()
        copy.keys = keys
        copy.memos = memos.map { $0.copy() }
        return copy
    }
}
