import Testing
@testable import Bots

@Suite struct AvalancheOptionsTests {
    private func parsed(_ arguments: [String]) throws -> BotOptions {
        guard case .run(let options) = try BotOptions.parse(arguments) else {
            throw BotOptions.ParseError(description: "asked for help")
        }
        return options
    }

    @Test func defaultsDropClientsAfterFiveSecondsAndGiveUpAfterThirty() throws {
        let options = try parsed(["avalanche"])
        #expect(options.scenario == .avalanche)
        #expect(options.dropMode == .clients)
        #expect(options.dropAfter == 5)
        #expect(options.giveUp == 30)
        #expect(options.path == "/ws")
        #expect(options.plannedConnections == 100 * 8)
    }

    @Test func serverModeAndItsTimes() throws {
        let options = try parsed(["avalanche", "--drop", "server", "--drop-after=3", "--give-up", "12.5",
                                  "--rooms", "50", "--players", "8"])
        #expect(options.dropMode == .server)
        #expect(options.dropAfter == 3)
        #expect(options.giveUp == 12.5)
        #expect(options.plannedConnections == 400)
    }

    @Test(arguments: [
        (["avalanche", "--drop", "network"], "--drop needs clients or server, not 'network'"),
        (["avalanche", "--rate", "30"], "--rate for avalanche is moves per bot per second, at most 20 (the server's per-connection limit), not 30"),
    ])
    func mistakesAreNamed(arguments: [String], message: String) {
        #expect(throws: BotOptions.ParseError(description: message)) { try BotOptions.parse(arguments) }
    }

    @Test func theHelpDescribesTheScenario() {
        for flag in ["avalanche", "--drop clients|server", "--drop-after", "--give-up"] {
            #expect(BotOptions.usage.contains(flag))
        }
    }
}
