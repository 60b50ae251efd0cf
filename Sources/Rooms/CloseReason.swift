/// Why a room or the server's session ends a client's connection.
///
/// The server maps each case to its WebSocket close code and reason text in one place
/// (`CloseReason+WebSocket.swift`); rooms only name the reason.
public enum CloseReason: Hashable, Sendable, CaseIterable {
    /// The member resumed their seat from a newer connection (another tab or device).
    case replaced
    /// The host removed the member from the room.
    case removedByHost
    /// The server's operator removed the member (the dashboard at `/admin`).
    case removedByOperator
    /// The server's operator closed the room.
    case roomClosed
    /// The connection kept sending past its message budget.
    case tooManyMessages
    /// The client's address already has as many connections as it may.
    case tooManyConnections
    /// The member's connection kept the heartbeat, then stopped it (a frozen, hidden or cached page): it is away.
    case silent
}
