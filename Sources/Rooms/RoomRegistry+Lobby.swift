/// The lobby: the public rooms listed for `GET /api/rooms` and followed by subscribers over their sockets.
extension RoomRegistry {
    /// Subscribers get at most two updates a second, however often rooms change.
    static let lobbyUpdateInterval = 0.5
    /// The listing is rebuilt (the public rooms sorted, changed rooms encoded) at most this often for requests:
    /// a request that finds it out of date while it is younger waits for the next rebuild, shared with every
    /// other request waiting then.
    static let lobbyRebuildInterval = 0.1

    /// Reports the public rooms as they are now, from the calling thread when no room changed since the last
    /// listing (the common case under a flood of requests), otherwise from the registry's.
    public nonisolated func withLobbyListing(_ body: @escaping @Sendable (LobbyListing) -> Void) {
        if let listing = publishedLobby.withLock({ $0 }) {
            body(listing)
            return
        }
        enqueue { $0.lobbyListing(for: body) }
    }

    private func lobbyListing(for body: @escaping @Sendable (LobbyListing) -> Void) {
        if !lobby.isStale, let listing = lobby.listing {
            body(listing)
            return
        }
        let wait = lobby.builtAt + Self.lobbyRebuildInterval - clock()
        guard wait > 0 else {
            body(rebuildLobbyListing())
            return
        }
        lobbyListingWaiters.append(body)
        guard lobbyListingWaiters.count == 1 else { return }
        (timers ?? executor).schedule(after: wait) { [weak self] in
            self?.enqueue { registry in
                let listing = registry.lobby.isStale || registry.lobby.listing == nil
                    ? registry.rebuildLobbyListing() : registry.lobby.listing!
                let waiters = registry.lobbyListingWaiters
                registry.lobbyListingWaiters.removeAll()
                for waiter in waiters { waiter(listing) }
            }
        }
    }

    private func rebuildLobbyListing() -> LobbyListing {
        let listing = lobby.rebuild(Array(summaries.values.filter(\.isPublic)), now: clock())
        publishedLobby.withLock { $0 = listing }
        return listing
    }

    /// The newest listing, rebuilt first when rooms changed since.
    private func currentLobbyListing() -> LobbyListing {
        guard !lobby.isStale, let listing = lobby.listing else { return rebuildLobbyListing() }
        return listing
    }

    /// Lobby updates for `link` from now on (see `subscribe`), queued in order.
    public nonisolated func subscribeLater(_ link: any ClientLink, game: GameKind? = nil) {
        enqueue { $0.subscribe(link, game: game) }
    }

    public nonisolated func unsubscribeLater(_ linkID: UInt64) {
        enqueue { $0.unsubscribe(linkID) }
    }

    /// Sends `link` the first page of `game`'s public rooms (every game's when nil) now, and what changes in it
    /// from then on, until `unsubscribe`.
    public func subscribe(_ link: any ClientLink, game: GameKind? = nil) {
        lobbySubscribers[link.id] = link
        // Built (when out of date) before the feed is changed: a page already followed needs no listing.
        let listing = lobby.isFollowed(game?.rawValue) ? nil : currentLobbyListing()
        link.send(lobby.subscribe(link.id, game: game?.rawValue, listing: listing))
    }

    public func unsubscribe(_ linkID: UInt64) {
        lobbySubscribers[linkID] = nil
        lobby.unsubscribe(linkID)
    }

    /// Marks the listing out of date and coalesces the subscribers' update (see `lobbyUpdateInterval`).
    func lobbyChanged() {
        lobby.roomsChanged()
        publishedLobby.withLock { $0 = nil }
        guard lobby.hasSubscribers, !lobbyBroadcastPending else { return }
        lobbyBroadcastPending = true
        (timers ?? executor).schedule(after: Self.lobbyUpdateInterval) { [weak self] in
            self?.enqueue { $0.broadcastLobby() }
        }
    }

    private func broadcastLobby() {
        lobbyBroadcastPending = false
        guard lobby.hasSubscribers else { return }
        let listing = currentLobbyListing()
        for (message, subscribers) in lobby.deltas(to: listing) {
            for id in subscribers {
                lobbySubscribers[id]?.send(message)
            }
        }
    }
}

extension RoomRegistry {
    /// The newest listing if no room changed since it was built, from any thread; nil: ask `withLobbyListing`.
    public nonisolated func latestLobbyListing() -> LobbyListing? {
        publishedLobby.withLock { $0 }
    }
}
