extension JSONObject {
    /// The hash index a large object keeps beside its members, behind one reference.
    ///
    /// Shared between copies of an object and never changed while shared: the owner checks that it holds the
    /// only reference before it touches the index (copy-on-write, as the standard collections do).
    final class Side {
        var index: [ObjectKey: Int]

        init(index: [ObjectKey: Int]) {
            self.index = index
        }
    }
}
