/// A coder on a chain of nested coders, each holding the step that leads to it from its parent: the value
/// decoder's, and the value encoder's alike (`ValueDecoder`, `ValueEncoder`).
///
/// The path is built only when asked (`codingPath`, errors), by walking the chain up to its root.
protocol CodingPathNode: AnyObject {
    /// How this coder's value is reached from its parent's.
    var step: CodingPathStep { get }
    /// The coder this one is nested in; nil at the root.
    var parent: Self? { get }
}

extension CodingPathNode {
    /// The keys from the root to this coder's value.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: Self? = self
        while let current = node {
            if let key = current.step.codingKey { path.append(key) }
            node = current.parent
        }
        path.reverse()
        return path
    }

    /// The path of a value at `step` below this coder, for errors.
    func codingPath(appending step: CodingPathStep) -> [any CodingKey] {
        var path = codingPath
        if let key = step.codingKey { path.append(key) }
        return path
    }
}
