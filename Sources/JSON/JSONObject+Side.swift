extension JSONObject {
    /// What an object keeps beside its members, in one allocation behind one reference: the hash index of a
    /// large object, or the serialized text of a frozen one.
    ///
    /// Shared between copies of an object and never changed while shared: the owner checks that it holds the
    /// only reference before it touches the index (copy-on-write, as the standard collections do).
    final class Side: ManagedBuffer<Side.Header, UInt8> {
        struct Header {
            var index: [ObjectKey: Int]?
            /// Bytes of frozen text in the elements; 0 when the object is not frozen (no JSON text is empty).
            var textCount: Int
        }

        /// A side holding only an index.
        static func holding(index: [ObjectKey: Int]) -> Side {
            unsafeDowncast(create(minimumCapacity: 0) { _ in Header(index: index, textCount: 0) }, to: Side.self)
        }

        /// A side holding the text of a frozen object.
        static func holding(text: UnsafeBufferPointer<UInt8>) -> Side {
            let side = unsafeDowncast(create(minimumCapacity: text.count) { _ in
                Header(index: nil, textCount: text.count)
            }, to: Side.self)
            side.withUnsafeMutablePointerToElements { elements in
                if let base = text.baseAddress { elements.initialize(from: base, count: text.count) }
            }
            return side
        }

        var isFrozen: Bool { header.textCount > 0 }

        func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try withUnsafeMutablePointers { header, elements in
                try body(UnsafeBufferPointer(start: elements, count: header.pointee.textCount))
            }
        }
    }
}
