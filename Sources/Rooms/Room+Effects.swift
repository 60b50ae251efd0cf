import Runtime

/// What the room does outside itself: carrying out, in order, the effects its machine returned (as
/// `EventLoop+Actions` does for a connection's machine).
extension Room {
    /// The kept effect buffer, empty, for the next step of the machine (an empty list when a step is already
    /// running, which only a callback re-entering the room could cause).
    func takeEffectBuffer() -> [RoomEffect] {
        var taken: [RoomEffect] = []
        swap(&taken, &effectBuffer)
        return taken
    }

    /// Carries out `effects` in order, then empties the list and keeps it (with its capacity) for the next step.
    /// Kept out of line: `Tests/Bench/callgrind.sh` counts the instructions of a move's effects from its entry.
    @inline(never)
    func run(_ effects: inout [RoomEffect]) {
        for index in effects.indices {
            execute(effects[index])
        }
        effects.removeAll(keepingCapacity: true)
        swap(&effects, &effectBuffer)
        lockedNow.store(machine.hostControls.locked, ordering: .relaxed)
        movesPlayed.store(machine.movesPlayed, ordering: .relaxed)
        connectedNow.store(machine.membership.connected, ordering: .relaxed)
    }

    private func execute(_ effect: RoomEffect) {
        switch effect {
        case .send(let link, let message):
            link.send(message)
        case .broadcast(let message, let except):
            publish(message, except: except)
        case .sendToEach(let message):
            for index in machine.membership.members.indices {
                machine.membership.members[index].link?.send(message)
            }
        case .close(let link, let reason):
            link.close(reason)
        case .entered(let entered, let seated):
            entered(seated)
        case .observeFanout(let receivedAt):
            fanout?.observe(MonotonicClock.seconds() - receivedAt)
        case .save:
            journal?.roomChanged(self)
        case .saveRestored:
            journal?.roomRestored(self)
        case .forget(let version):
            journal?.roomRemoved(code, version: version)
        case .schedule(let seconds):
            if let timer { timers.cancel(timer) }
            timer = timers.schedule(after: seconds) { [weak self] in
                self?.tick()
            }
        case .cancelTimer:
            if let timer { timers.cancel(timer) }
            timer = nil
        case .publishSoon:
            executor.execute { [self] in
                self.assumeIsolated { room in room.publishIfQueued() }
            }
        case .summary(let summary):
            registry?.roomChanged(summary)
        case .disposed:
            // The audience may hold the room's biggest buffer: let it go now, whoever still holds the room.
            releaseAudience()
            registry?.roomDisposed(code)
        }
    }
}
