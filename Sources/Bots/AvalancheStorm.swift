/// The driver's view of the storm, fed the bots' progress: when to drop, when it began, when it is over.
/// Pure, so the phases are tested without sockets.
struct AvalancheStorm {
    enum Step: Equatable {
        /// Nothing to do yet.
        case wait
        /// `--drop clients`: drop every connection now.
        case drop
        /// `--drop server`: the warm-up is over; the bots wait for the server to go away.
        case awaitServer
        /// The first connection was lost.
        case stormBegan
        /// Every lost bot is back in its seat: the storm is over.
        case allBack
        /// The storm is over without everyone back.
        case gaveUp(String)
    }

    private enum Phase { case warmingUp, waitingForServer, dropped, storming }

    let mode: BotOptions.DropMode
    let dropAt: UInt64
    let giveUp: UInt64
    private var phase = Phase.warmingUp
    private var waitingSince: UInt64 = 0

    init(mode: BotOptions.DropMode, dropAt: UInt64, giveUpNanoseconds: UInt64) {
        self.mode = mode
        self.dropAt = dropAt
        self.giveUp = giveUpNanoseconds
    }

    mutating func next(_ progress: AvalancheCrew.Progress, now: UInt64) -> Step {
        switch phase {
        case .warmingUp:
            // The storm hits seated players: bots still entering their rooms are waited for, up to `giveUp`.
            guard now >= dropAt, progress.entering == 0 || now >= dropAt + giveUp else { return .wait }
            waitingSince = now
            switch mode {
            case .clients:
                phase = .dropped
                return .drop
            case .server:
                phase = .waitingForServer
                return .awaitServer
            }
        case .waitingForServer, .dropped:
            if progress.firstLossAt != nil {
                phase = .storming
                return .stormBegan
            }
            if now >= waitingSince + giveUp {
                return .gaveUp(mode == .server ? "the server never went away" : "no connection was lost")
            }
            return .wait
        case .storming:
            // Everyone seated lost the connection (the whole storm, not only its first bots), and nobody is
            // still trying: all back, or refused for good.
            if progress.lost >= progress.seated, progress.away == progress.refused { return .allBack }
            if let first = progress.firstLossAt, now >= first + giveUp {
                return .gaveUp("gave up: \(progress.away) bots not back \(formatNumber(Double(giveUp) / 1e9)) s after the first loss")
            }
            return .wait
        }
    }
}
