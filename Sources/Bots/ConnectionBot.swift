import Transport

/// A bot that is nothing but its connection (the echo and idle bots): it connects when the ramp allows and
/// closes normally at the end of the run.
protocol ConnectionBot: LoadBot, WebSocketEndpoint {
    var worker: LoopWorker { get }
    var link: BotConnection { get }
}

extension ConnectionBot {
    func start() {
        guard worker.running else { return }
        link.connect(self, on: worker)
    }

    func finish() {
        link.close()
    }

    /// Records the connection that just opened; when the run ended while it was opening, finishes instead and
    /// returns false.
    func openedWhileRunning(_ connection: Connection) -> Bool {
        link.opened(connection, on: worker)
        guard worker.running else {
            finish()
            return false
        }
        return true
    }

    func connectionFailed(reason: String) {
        link.failed(reason: reason, on: worker)
    }
}
