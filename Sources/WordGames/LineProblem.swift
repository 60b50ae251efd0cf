/// One refused line or entry of a word list: where it stood, what it said and why. A word file's problems
/// (`WordList.Problem`) and a pasted list's (`CustomWordList.Problem`) differ only in their reasons.
public struct LineProblem<Reason: LineProblemReason>: Hashable, Sendable, CustomStringConvertible {
    /// Line number, counted from 1.
    public var line: Int
    /// The line or entry as read, trimmed.
    public var text: String
    /// What is wrong with it.
    public var reason: Reason

    /// Creates a problem report.
    public init(line: Int, text: String, reason: Reason) {
        self.line = line
        self.text = text
        self.reason = reason
    }

    /// The problem for people, e.g. `line 3: "cat" has 3 letters (words need 4 to 10)`.
    public var description: String { reason.describe(line: line, text: text) }
}

/// Why a line of a word list was refused, and how to say it.
public protocol LineProblemReason: Hashable, Sendable {
    /// The sentence for the line numbered `line` holding `text`.
    func describe(line: Int, text: String) -> String
}
