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
        case .sendOutsideStream(let link, let message):
            link.sendOutsideStream(message)
        case .broadcast(let message, let except):
            broadcast(message, except: except)
        case .broadcastOutsideStream(let message):
            for index in machine.membership.members.indices {
                machine.membership.members[index].link?.sendOutsideStream(message)
            }
        case .close(let link, let reason):
            link.close(reason)
        case .restartStream:
            broadcastStreamRestart = true
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
            // The stream's compressor is the room's biggest buffer: let it go now, whoever still holds the room.
            broadcastStream = nil
            registry?.roomDisposed(code)
        }
    }

    /// Queues a patch to every connected member but `except`, in the room's stream first when one follows it.
    /// Members are looked at in place (by index): copying one out retains all its fields. Plain loops rather
    /// than closures: a closure formed in the actor checks at run time that it runs on the actor's executor.
    private func broadcast(_ message: ServerMessage, except: UInt64?) {
        encodeInStream(message, except: except)
        for index in machine.membership.members.indices {
            if let link = machine.membership.members[index].link, link.id != except {
                link.send(message)
            }
        }
        // The stream form served this broadcast only: replays from the history go outside the stream. Kept, it
        // would hold a second framing (compressed) of each of the history's patches: 256 of them per room.
        message.streamForm = nil
    }

    /// Hands a broadcast to the room's stream when some recipient follows it (the stream is made then, so rooms
    /// of players who negotiated no compression never pay for one).
    private func encodeInStream(_ message: ServerMessage, except: UInt64?) {
        guard let makeBroadcastStream else { return }
        var followed = false
        for index in machine.membership.members.indices {
            if let link = machine.membership.members[index].link, link.id != except, link.followsBroadcastStream {
                followed = true
                break
            }
        }
        guard followed else { return }
        if broadcastStream == nil {
            broadcastStream = makeBroadcastStream()
            broadcastStreamRestart = true
        }
        broadcastStream?.append(message, restart: broadcastStreamRestart)
        broadcastStreamRestart = false
    }
}
