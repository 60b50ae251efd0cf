import Testing
import Runtime

@Suite struct ArgumentScannerTests {
    /// Every argument `next()` returns, with the value read for each flag named in `valued`.
    private func scan(_ arguments: [String], valued: Set<String> = [],
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        var scanner = ArgumentScanner(arguments)
        var seen: [String] = []
        while let argument = try scanner.next() {
            switch argument {
            case .flag(let name) where valued.contains(name): seen.append("\(name)=\(try scanner.value())")
            case .flag(let name): seen.append(name)
            case .positional(let text): seen.append("[\(text)]")
            }
        }
        return seen
    }

    /// The error thrown by `body` for a scanner positioned on the first argument.
    private func mistake(_ arguments: [String], _ body: (inout ArgumentScanner) throws(ArgumentScanner.UsageError) -> Void,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        var scanner = ArgumentScanner(arguments)
        _ = try scanner.next()
        do {
            try body(&scanner)
        } catch {
            return error.description
        }
        Issue.record("no mistake reported", sourceLocation: sourceLocation)
        return ""
    }

    @Test func valuesComeInlineOrAsTheNextArgument() throws {
        #expect(try scan(["--a", "1", "--b=2", "--c=", "go"], valued: ["--a", "--b", "--c"])
                == ["--a=1", "--b=2", "--c=", "[go]"])
    }

    @Test func onlyTheFirstEqualsSignSplitsAndOnlyForLongFlags() throws {
        #expect(try scan(["--url=ws://h/?x=1"], valued: ["--url"]) == ["--url=ws://h/?x=1"])
        #expect(try scan(["-h=1"]) == ["-h=1"], "a short flag keeps its = as part of the name")
    }

    @Test func positionalsAndFlagsKeepTheirOrder() throws {
        #expect(try scan(["play", "--quiet", "echo", "-h"]) == ["[play]", "--quiet", "[echo]", "-h"])
    }

    @Test func aMissingValueIsNamed() throws {
        #expect(try mistake(["--rooms"]) { scanner throws(ArgumentScanner.UsageError) in _ = try scanner.value() }
                == "--rooms needs a value")
        #expect(try mistake(["--rooms", "--players", "3"]) { scanner throws(ArgumentScanner.UsageError) in
            _ = try scanner.value()
        } == "--rooms needs a value", "the next flag is not taken as the value")
    }

    @Test func aParsersRefusalIsNamedByItsFlagWithoutTheValue() throws {
        struct Refusal: Error, CustomStringConvertible {
            var description: String { "too short" }
        }
        #expect(try mistake(["--token=hunter2"]) { scanner throws(ArgumentScanner.UsageError) in
            _ = try scanner.value(parsedBy: { (_: String) throws -> Int in throw Refusal() })
        } == "--token: too short")
        var scanner = ArgumentScanner(["--port", "80"])
        _ = try scanner.next()
        #expect(try scanner.value(parsedBy: { Int($0) ?? 0 }) == 80)
    }

    @Test func aSingleDashValueIsAValue() throws {
        // A negative number after its flag must reach the range check, not read as a missing value.
        #expect(try mistake(["--spectators", "-1"]) { scanner throws(ArgumentScanner.UsageError) in
            _ = try scanner.integer(in: 0...256)
        } == "--spectators needs a whole number from 0 to 256, not '-1'")
    }

    @Test func aFlagWithoutValueRefusesAnInlineOne() throws {
        var scanner = ArgumentScanner(["--quiet=yes"])
        #expect(try scanner.next() == .flag("--quiet"))
        #expect(throws: ArgumentScanner.UsageError(description: "--quiet takes no value")) { try scanner.noValue() }
        #expect(throws: ArgumentScanner.UsageError(description: "--quiet takes no value")) { try scanner.next() }
    }

    @Test func aValueReadInlineIsNotAMistake() throws {
        var scanner = ArgumentScanner(["--json=out.json"])
        _ = try scanner.next()
        #expect(try scanner.value() == "out.json")
        #expect(try scanner.next() == nil)
    }

    @Test(arguments: [
        ("0", "--n needs a whole number from 1 to 16, not '0'"),
        ("17", "--n needs a whole number from 1 to 16, not '17'"),
        ("3.5", "--n needs a whole number from 1 to 16, not '3.5'"),
        ("many", "--n needs a whole number from 1 to 16, not 'many'"),
    ])
    func integersOutsideTheirRangeAreRefused(text: String, message: String) throws {
        #expect(try mistake(["--n", text]) { scanner throws(ArgumentScanner.UsageError) in
            _ = try scanner.integer(in: 1...16)
        } == message)
    }

    @Test func integersWithinTheirRangeIncludeTheBounds() throws {
        var scanner = ArgumentScanner(["--a", "1", "--b", "16", "--seed", "18446744073709551615"])
        _ = try scanner.next()
        #expect(try scanner.integer(in: 1...16) == 1)
        _ = try scanner.next()
        #expect(try scanner.integer(in: 1...16) == 16)
        _ = try scanner.next()
        #expect(try scanner.integer(in: 0...UInt64.max) == UInt64.max)
    }

    @Test(arguments: [
        ("0", true, "--rate needs a number more than 0 to 20, not '0'"),
        ("nan", true, "--rate needs a number more than 0 to 20, not 'nan'"),
        ("inf", false, "--rate needs a number from 0 to 20, not 'inf'"),
        ("20.5", false, "--rate needs a number from 0 to 20, not '20.5'"),
    ])
    func numbersOutsideTheirRangeAreRefused(text: String, exclusive: Bool, message: String) throws {
        #expect(try mistake(["--rate", text]) { scanner throws(ArgumentScanner.UsageError) in
            _ = try scanner.number(in: 0...20, exclusiveLower: exclusive)
        } == message)
    }

    @Test func numbersKeepTheirFractionAndFractionalBoundsShowThem() throws {
        var scanner = ArgumentScanner(["--share", "0.25", "--x", "2"])
        _ = try scanner.next()
        #expect(try scanner.number(in: 0...1) == 0.25)
        _ = try scanner.next()
        #expect(throws: ArgumentScanner.UsageError(description: "--x needs a number from 0.5 to 1.5, not '2'")) {
            try scanner.number(in: 0.5...1.5)
        }
    }

    @Test func convertedValuesNameWhatIsExpected() throws {
        var scanner = ArgumentScanner(["--game", "scramble", "--game=chess"])
        _ = try scanner.next()
        #expect(try scanner.value(expected: "snowman or scramble") { ["snowman", "scramble"].contains($0) ? $0 : nil }
                == "scramble")
        _ = try scanner.next()
        #expect(throws: ArgumentScanner.UsageError(description: "--game needs snowman or scramble, not 'chess'")) {
            try scanner.value(expected: "snowman or scramble") { ["snowman", "scramble"].contains($0) ? $0 : nil }
        }
    }

    @Test func unknownOptionsQuoteTheArgumentAsTyped() throws {
        var scanner = ArgumentScanner(["--frobnicate=3", "stray"])
        _ = try scanner.next()
        #expect(scanner.unknownOption().description == "unknown option '--frobnicate=3'")
        #expect(scanner.unknownOption(hint: " (see --help)").description == "unknown option '--frobnicate=3' (see --help)")
        // Leaving the inline value unread is the unknown option's mistake, reported by the caller first.
        var next = ArgumentScanner(["stray"])
        _ = try next.next()
        #expect(next.unknownOption().description == "unknown option 'stray'")
    }
}
