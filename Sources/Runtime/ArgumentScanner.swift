/// Reads a command line one argument at a time, for both executables (`wordrooms`, `wordrooms-bots`): flags as
/// `--flag value` or `--flag=value`, flags that take no value, positional arguments, and values checked against
/// a range or a rule, with every mistake worded for the person who typed it (`--rooms needs a whole number from
/// 1 to 100000, not '0'`).
///
/// The caller switches over what `next()` returns and asks for the current flag's value in the form it needs:
///
///     var scanner = ArgumentScanner(arguments)
///     while let argument = try scanner.next() {
///         switch argument {
///         case .flag("--port"): port = try scanner.integer(in: 0...65535)
///         case .flag("--quiet"): quiet = true
///         default: throw scanner.unknownOption()
///         }
///     }
///
/// A value given inline to a flag that never asked for it (`--quiet=yes`) is a mistake that `next()` reports.
public struct ArgumentScanner {
    /// A command-line mistake, worded for the person who typed it.
    public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// One argument of the command line.
    public enum Argument: Equatable, Sendable {
        /// An argument starting with `-`: `--name`, `-n`, or the name part of `--name=value`.
        case flag(String)
        /// Any other argument.
        case positional(String)
    }

    private var remaining: ArraySlice<String>
    /// The current argument as it was typed (`--rooms=3` whole).
    public private(set) var argument = ""
    /// The current flag's name, without an inline value.
    public private(set) var flag = ""
    /// The value after `=` of the current flag, until a value is asked for.
    private var inlineValue: String?

    /// - Parameter arguments: The command-line arguments after the program name.
    public init(_ arguments: [String]) {
        remaining = arguments[...]
    }

    /// The next argument, nil after the last.
    ///
    /// - Throws: `UsageError` when the previous flag was given a value inline that it takes none of.
    public mutating func next() throws(UsageError) -> Argument? {
        try noValue()
        guard let argument = remaining.popFirst() else { return nil }
        self.argument = argument
        guard argument.hasPrefix("-") else {
            flag = ""
            return .positional(argument)
        }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            flag = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        } else {
            flag = argument
        }
        return .flag(flag)
    }

    /// Checks that the current flag was not given a value: for flags that only switch something on.
    ///
    /// - Throws: `UsageError` saying the flag takes no value.
    public func noValue() throws(UsageError) {
        if inlineValue != nil { throw UsageError(description: "\(flag) takes no value") }
    }

    /// The current flag's value: after its `=`, else the next argument, which must not be a flag itself.
    ///
    /// - Throws: `UsageError` saying the flag needs a value.
    public mutating func value() throws(UsageError) -> String {
        if let inlineValue {
            self.inlineValue = nil
            return inlineValue
        }
        guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
            throw UsageError(description: "\(flag) needs a value")
        }
        return next
    }

    /// The current flag's value converted by `convert`, which returns nil for a value it refuses.
    ///
    /// - Parameters:
    ///   - expected: What the flag needs, for the message: `"snowman, scramble or mixed"`.
    ///   - convert: The value's meaning, or nil when it has none.
    /// - Throws: `UsageError` as `value()`, or `--flag needs EXPECTED, not 'VALUE'`.
    public mutating func value<Value>(expected: String, _ convert: (String) -> Value?) throws(UsageError) -> Value {
        let text = try value()
        guard let converted = convert(text) else { throw invalid(text, expected: expected) }
        return converted
    }

    /// The current flag's value parsed by `parse`, whose error says what is wrong with it.
    ///
    /// - Throws: `UsageError` as `value()`, or `--flag: ERROR`. The value itself is not repeated: some are secrets
    ///   (`--admin-token`).
    public mutating func value<Value>(parsedBy parse: (String) throws -> Value) throws(UsageError) -> Value {
        let text = try value()
        do {
            return try parse(text)
        } catch {
            throw UsageError(description: "\(flag): \(error)")
        }
    }

    /// The current flag's value as a whole number within `range`.
    ///
    /// - Throws: `UsageError` as `value()`, or `--flag needs a whole number from LOWER to UPPER, not 'VALUE'`.
    public mutating func integer<Integer: FixedWidthInteger>(in range: ClosedRange<Integer>) throws(UsageError) -> Integer {
        try value(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)") { text in
            Integer(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// The current flag's value as a finite number within `range`.
    ///
    /// - Parameter exclusiveLower: The lower bound itself is refused (a duration or rate of zero).
    /// - Throws: `UsageError` as `value()`, or `--flag needs a number from LOWER to UPPER, not 'VALUE'`
    ///   (`more than LOWER` when the bound is exclusive).
    public mutating func number(in range: ClosedRange<Double>, exclusiveLower: Bool = false) throws(UsageError) -> Double {
        let lower = exclusiveLower ? "more than \(Self.format(range.lowerBound))" : "from \(Self.format(range.lowerBound))"
        return try value(expected: "a number \(lower) to \(Self.format(range.upperBound))") { text in
            guard let number = Double(text), number.isFinite, range.contains(number),
                  !(exclusiveLower && number == range.lowerBound) else { return nil }
            return number
        }
    }

    /// The mistake of giving the current flag `text`: `--flag needs EXPECTED, not 'TEXT'`.
    public func invalid(_ text: String, expected: String) -> UsageError {
        UsageError(description: "\(flag) needs \(expected), not '\(text)'")
    }

    /// The mistake of giving an argument the program does not know: `unknown option 'ARGUMENT'` and `hint`.
    ///
    /// - Parameter hint: Said after the argument, such as `" (see --help)"`.
    public func unknownOption(hint: String = "") -> UsageError {
        UsageError(description: "unknown option '\(argument)'\(hint)")
    }

    /// A bound for people: no trailing `.0` on whole numbers.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
