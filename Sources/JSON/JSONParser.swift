/// A strict RFC 8259 parser with limits for hostile input.
///
/// Accepts exactly the JSON grammar: no comments, no trailing commas, no leading zeros, no byte order mark,
/// only the escapes of RFC 8259 §7 with `\uXXXX` surrogate pairs combined and lone surrogates rejected, and
/// only well-formed UTF-8 inside strings (RFC 8259 §8.1). Duplicate member names, which RFC 8259 §4 leaves to
/// the implementation, are rejected so that no two readers can disagree on a message.
///
/// The parser never traps and never recurses: containers are kept on an explicit stack whose height is
/// checked against `Limits.maxDepth` before each push. Every size limit is checked while scanning, so an
/// oversized string or document is refused before it is copied.
public struct JSONParser: Sendable {
    /// The limits applied to each document.
    public var limits: Limits

    /// Creates a parser.
    ///
    /// - Parameter limits: The limits for hostile input; `.default` suits small client messages.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Parses one JSON text (RFC 8259 §2) that must fill `bytes` exactly, surrounded only by whitespace.
    ///
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the byte offset of the first problem.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(Error) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw Error(.inputTooLarge(limit: limits.maxBytes), offset: limits.maxBytes)
        }
        var reader = Reader(bytes: bytes, limits: limits, checksUTF8: true)
        return try reader.parseDocument()
    }

    /// Parses one JSON text that is already known to be well-formed UTF-8, without checking its UTF-8 again.
    ///
    /// For input whose encoding was validated on the way in, such as a WebSocket text message (RFC 6455 §8.1:
    /// the receiver fails the connection on invalid UTF-8 in a text message). Everything else is checked as by
    /// `parse(_:)`.
    ///
    /// - Precondition: `bytes` is well-formed UTF-8. Breaking it is memory-safe but not detected: ill-formed
    ///   sequences inside strings come out as U+FFFD, where `parse(_:)` would throw `invalidUTF8`.
    /// - Parameter bytes: UTF-8 encoded JSON text, validated by the caller.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the byte offset of the first problem.
    public func parse(validatedUTF8 bytes: UnsafeRawBufferPointer) throws(Error) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw Error(.inputTooLarge(limit: limits.maxBytes), offset: limits.maxBytes)
        }
        var reader = Reader(bytes: bytes, limits: limits, checksUTF8: false)
        return try reader.parseDocument()
    }

    /// Parses one JSON text from a byte collection such as `[UInt8]` or `ArraySlice<UInt8>`.
    ///
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the byte offset (from the start of `bytes`) of the first problem.
    public func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(Error) -> JSONValue {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Error) in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        if let contiguous {
            return try contiguous.get()
        }
        return try parse(Array(bytes))
    }

    /// Parses one JSON text from a string's UTF-8.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The value.
    /// - Throws: `JSONParser.Error` with the UTF-8 byte offset of the first problem.
    public func parse(_ text: String) throws(Error) -> JSONValue {
        try parse(text.utf8)
    }
}

// MARK: - Limits

extension JSONParser {
    /// Bounds on a document's size and shape, so hostile input cannot exhaust memory, stack or time.
    public struct Limits: Hashable, Sendable {
        /// The deepest nesting of arrays and objects; the root container is at depth 1.
        public var maxDepth: Int
        /// The longest document, in bytes.
        public var maxBytes: Int
        /// The longest string or member name, in UTF-8 bytes after unescaping.
        public var maxStringLength: Int
        /// The most array elements plus object members, counted over the whole document.
        public var maxElements: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxDepth: The deepest nesting of arrays and objects.
        ///   - maxBytes: The longest document, in bytes.
        ///   - maxStringLength: The longest string or key, in UTF-8 bytes after unescaping.
        ///   - maxElements: The most array elements plus object members in the whole document.
        public init(maxDepth: Int = 32, maxBytes: Int = 1 << 20, maxStringLength: Int = 1 << 16,
                    maxElements: Int = 1 << 16) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
            self.maxStringLength = maxStringLength
            self.maxElements = maxElements
        }

        /// Depth 32, 1 MiB, strings of 64 KiB, 65,536 elements.
        public static let `default` = Limits()
    }
}
