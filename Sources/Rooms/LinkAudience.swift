/// The audience of a room whose server gives it none (tests, tools): each message handed to every link's `send`.
final class LinkAudience: RoomAudience {
    private var links: [any ClientLink] = []

    func admit(_ link: any ClientLink) {
        dismiss(link.id)
        links.append(link)
    }

    func dismiss(_ linkID: UInt64) {
        links.removeAll { $0.id == linkID }
    }

    func publish(_ message: ServerMessage, except: UInt64?) {
        for link in links where link.id != except {
            link.send(message)
        }
    }
}
