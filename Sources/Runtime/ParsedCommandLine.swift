#if canImport(Glibc)
import Glibc
#endif

/// What a command line asks of an executable: run with these options, or show the help.
public enum ParsedCommandLine<Options> {
    /// Run with these options.
    case run(Options)
    /// `-h` or `--help`: print the usage and exit.
    case help
}

extension ParsedCommandLine: Equatable where Options: Equatable {}
extension ParsedCommandLine: Sendable where Options: Sendable {}

extension ParsedCommandLine {
    /// The options of this process's command line, for an executable's `main`: when help is asked for, prints
    /// `usage` to standard output and exits 0; on a mistake, hands it to `report` (each executable words it its
    /// own way) and exits 2.
    ///
    /// - Parameters:
    ///   - parse: The executable's parser, given the arguments after the program name.
    ///   - usage: The help text.
    ///   - report: Says the mistake to the person who typed it.
    /// - Returns: The options to run with.
    public static func options(
        parsing parse: ([String]) throws(ArgumentScanner.UsageError) -> ParsedCommandLine<Options>,
        usage: String,
        report: (ArgumentScanner.UsageError) -> Void
    ) -> Options {
        do {
            switch try parse(Array(CommandLine.arguments.dropFirst())) {
            case .run(let options):
                return options
            case .help:
                print(usage)
                exit(0)
            }
        } catch {
            report(error)
            exit(2)
        }
    }
}
