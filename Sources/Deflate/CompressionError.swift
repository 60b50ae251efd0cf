/// A zlib failure, with zlib's own return code (`Z_DATA_ERROR`, `Z_MEM_ERROR`, ...).
public struct CompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done: `deflateInit2`, `inflate`...
    public var call: String
    public var code: Int32

    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call) failed (zlib \(code))" }
}
