import Transport
import WebSocket

/// `/admin/ws`: the dashboard's live feed. The token was checked before the upgrade (`AdminRoutes.refusal`); the
/// socket gets the history once, then one update a second. The page sends nothing on it: actions go through the
/// HTTP API, whose answers say how each went.
final class AdminEndpoint: WebSocketEndpoint {
    let monitor: AdminMonitor

    init(monitor: AdminMonitor) {
        self.monitor = monitor
    }
    /// Nothing is expected; a small bound keeps a confused client from making the server buffer much.
    var maxMessageBytes: Int { 1024 }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        monitor.watch(connection)
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        refuse(connection)
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        refuse(connection)
    }

    private func refuse(_ connection: Connection) {
        connection.sendText(#"{"type":"error","code":"no-messages","message":"The admin socket takes no messages: use the HTTP API under /admin/api/ for actions."}"#)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        monitor.unwatch(connection.handle.id)
    }
}
