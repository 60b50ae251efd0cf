import Testing
@testable import Bots

@Suite struct WebSocketURLTests {
    @Test(arguments: [
        ("ws://127.0.0.1:8080", WebSocketURL(host: "127.0.0.1", port: 8080, path: nil)),
        ("ws://localhost:8080/ws", WebSocketURL(host: "127.0.0.1", port: 8080, path: "/ws")),
        ("ws://10.0.0.2", WebSocketURL(host: "10.0.0.2", port: 80, path: nil)),
        ("ws://[::1]:9000/echo", WebSocketURL(host: "::1", port: 9000, path: "/echo")),
        ("ws://127.0.0.1:8080/", WebSocketURL(host: "127.0.0.1", port: 8080, path: nil)),
    ])
    func parsesNumericHostsPortsAndPaths(text: String, expected: WebSocketURL) throws {
        #expect(try WebSocketURL(parsing: text) == expected)
    }

    @Test func hostHeaderBracketsIPv6() {
        #expect(WebSocketURL(host: "::1", port: 9000, path: nil).hostHeader == "[::1]:9000")
        #expect(WebSocketURL(host: "127.0.0.1", port: 80, path: nil).hostHeader == "127.0.0.1:80")
    }

    @Test(arguments: ["ws://[::1", "ws://[::1]x", "ws://127.0.0.1:0", "ws://127.0.0.1:port", "ws://host.example", "127.0.0.1:8080"])
    func refusesMalformedURLs(text: String) {
        #expect(throws: WebSocketURL.ParseError.self) { try WebSocketURL(parsing: text) }
    }
}
