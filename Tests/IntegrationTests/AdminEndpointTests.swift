import Foundation
import JSON
import Testing
import WebSocket
@testable import WordRoomsServer

/// The operator dashboard's endpoints on the real server: the token on every one of them, the live socket's
/// history and updates, and the room actions as players see them.
@Suite(.serialized) struct AdminEndpointTests {
    /// Every admin endpoint, with the method it takes.
    static let endpoints: [(method: String, path: String)] = [
        ("GET", "/admin/api/timeline"), ("GET", "/admin/api/rooms"), ("GET", "/admin/api/rooms/QHTW"),
        ("POST", "/admin/api/rooms/QHTW/lock"), ("POST", "/admin/api/rooms/QHTW/unlock"),
        ("POST", "/admin/api/rooms/QHTW/close"), ("POST", "/admin/api/rooms/QHTW/members/p1/remove"),
        ("GET", "/admin/api/nothing-here"), ("GET", "/admin/api"), ("GET", "/admin/ws"),
    ]

    /// A room of `game` that Ana created and Bob joined: their clients and its code.
    static func anaAndBob(_ port: Int, game: String) throws -> (ana: GameClient, bob: GameClient, code: String) {
        let ana = try GameClient.create(port: port, game: game, name: "Ana")
        let code = try #require(ana.code)
        return (ana, try GameClient.join(port: port, code: code, name: "Bob"), code)
    }

    @Test func everyAdminEndpointAnswers401WithoutTheToken() async throws {
        try await withServer { server in
            let right = server.adminToken.value
            for (method, path) in Self.endpoints {
                for authorization in [nil, "Bearer wrong-token-wrong-token", "Bearer \(right)x", "Basic \(right)"] {
                    let response = try Self.request(server.port, method, path, authorization: authorization)
                    #expect(response.status == 401, "\(method) \(path) with \(authorization ?? "nothing")")
                    #expect(response.head.contains("WWW-Authenticate: Bearer"))
                    #expect(String(decoding: response.body, as: UTF8.self).contains("admin token"))
                }
                // The query carries the token for the WebSocket only (which then wants an upgrade: 426).
                let query = try Self.request(server.port, method, path + "?token=\(right)", authorization: nil)
                #expect(query.status == (path == "/admin/ws" ? 426 : 401), "\(method) \(path)?token=")
                let authorized = try Self.request(server.port, method, path, authorization: "Bearer \(right)")
                #expect(authorized.status != 401, "\(method) \(path) with the token")
            }
            for path in ["/admin/api/timeline", "/admin/api/rooms"] {
                let response = try Self.request(server.port, "GET", path, authorization: "Bearer \(right)")
                #expect(response.status == 200)
                #expect(response.head.contains("application/json"))
            }
            let noRoom = try Self.request(server.port, "GET", "/admin/api/rooms/QHTW", authorization: "Bearer \(right)")
            #expect(noRoom.status == 404)
            let badCode = try Self.request(server.port, "GET", "/admin/api/rooms/Q1", authorization: "Bearer \(right)")
            #expect(badCode.status == 400)
            let wrongMethod = try Self.request(server.port, "GET", "/admin/api/rooms/QHTW/lock",
                                               authorization: "Bearer \(right)")
            #expect(wrongMethod.status == 405)
        }
    }

    @Test func theAdminSocketNeedsTheTokenInTheQueryOrHeader() async throws {
        try await withServer { server in
            let token = server.adminToken.value
            for (path, headers) in [("/admin/ws", [(String, String)]()), ("/admin/ws?token=wrong-wrong-wrong-wrong", []),
                                    ("/admin/ws", [("Authorization", "Bearer nope-nope-nope-nope")])] {
                let client = try TestClient(port: server.port)
                try client.send(WebSocketHandshake.clientRequest(host: "x", path: path,
                                                                 key: WebSocketHandshake.randomKey(),
                                                                 extraHeaders: headers))
                let response = try client.readHTTPResponse()
                #expect(response.status == 401, "\(path) \(headers)")
            }
            let byHeader = try TestClient(port: server.port)
            try byHeader.send(WebSocketHandshake.clientRequest(host: "x", path: "/admin/ws",
                                                               key: WebSocketHandshake.randomKey(),
                                                               extraHeaders: [("Authorization", "Bearer \(token)")]))
            #expect(try byHeader.readHTTPHead().hasPrefix("HTTP/1.1 101"))
        }
    }

    @Test func theAdminSocketSendsTheHistoryThenOneUpdateASecond() async throws {
        try await withServer { server in
            let room = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let feed = try TestClient.webSocket(port: server.port, path: "/admin/ws?token=\(server.adminToken.value)")
            let history = try JSONParser().parse(try feed.readMessage().payload)
            #expect(history["type"]?.stringValue == "history")
            #expect(history["timeline"]?["capacity"]?.intValue == 900)
            let seen = history["timeline"]?["t"]?.arrayValue?.count ?? 0
            var times: [Double] = []
            while times.count < 2 {
                let update = try JSONParser().parse(try feed.readMessage().payload)
                #expect(update["type"]?.stringValue == "sample")
                #expect(update["rooms"]?["columns"]?[0]?.stringValue == "code")
                times.append(try #require(update["sample"]?["t"]?.doubleValue))
                if let rows = update["rooms"]?["rows"]?.arrayValue, times.count == 2 {
                    #expect(rows.contains { $0[0]?.stringValue == room.code })
                    let row = try #require(rows.first { $0[0]?.stringValue == room.code })
                    #expect(row[1]?.stringValue == "snowman")
                    #expect(row[2]?.intValue == 1)
                }
                // The connections plotted include this socket and the player's.
                #expect((update["sample"]?["connections"]?.intValue ?? 0) >= 2)
            }
            #expect(times[1] > times[0])
            // What arrived also went into the history.
            let later = try Self.request(server.port, "GET", "/admin/api/timeline",
                                         authorization: "Bearer \(server.adminToken.value)")
            let timeline = try JSONParser().parse(later.body)["timeline"]
            #expect((timeline?["t"]?.arrayValue?.count ?? 0) >= seen + 2)
            #expect(server.application.admin.watcherCount == 1)
            _ = room
        }
    }

    @Test func theRoomTableCountsLiveConnectionsApartFromSeats() async throws {
        try await withServer { server in
            let (ana, bob, code) = try Self.anaAndBob(server.port, game: "snowman")
            let auth = "Bearer \(server.adminToken.value)"
            // The table is sampled once a second: poll until it shows what is asked, for a few seconds at most.
            func row(until wanted: (JSONValue) -> Bool) throws -> JSONValue? {
                for _ in 0..<60 {
                    let table = try JSONParser().parse(try Self.request(server.port, "GET", "/admin/api/rooms",
                                                                        authorization: auth).body)
                    let columns = table["columns"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    #expect(columns.firstIndex(of: "connected") == 4, "\(columns)")
                    if let row = table["rows"]?.arrayValue?.first(where: { $0[0]?.stringValue == code }), wanted(row) {
                        return row
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return nil
            }
            let both = try row { $0[4]?.intValue == 2 }
            #expect(both?[2]?.intValue == 2)
            // Bob's connection drops: his seat stays (he may resume), but he is no longer connected.
            bob.socket.abort()
            try ana.receive { _ in ana.state["members"]?[1]?["connected"]?.boolValue == false }
            let one = try row { $0[4]?.intValue == 1 }
            #expect(one?[2]?.intValue == 2, "the seat is kept for a resume")
            #expect(one?[4]?.intValue == 1)
        }
    }

    @Test func lockRefusesNewJoinsWithRoomLockedAndUnlockLetsThemIn() async throws {
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = try #require(host.code)
            let auth = "Bearer \(server.adminToken.value)"
            #expect(try Self.request(server.port, "POST", "/admin/api/rooms/\(code)/lock", authorization: auth).status == 200)
            // Members see the lock in the state, as when the host locks.
            try host.receive { _ in host.state["locked"]?.boolValue == true }
            let refused = try GameClient.join(port: server.port, code: code, name: "Eve")
            #expect(refused.errors.first?["code"]?.stringValue == "room-locked")
            #expect(refused.you == nil)
            #expect(try Self.request(server.port, "POST", "/admin/api/rooms/\(code.lowercased())/unlock",
                                     authorization: auth).status == 200)
            let welcome = try GameClient.join(port: server.port, code: code, name: "Eve")
            #expect(welcome.you != nil)
            let view = try JSONParser().parse(try Self.request(server.port, "GET", "/admin/api/rooms/\(code)",
                                                               authorization: auth).body)
            #expect(view["locked"]?.boolValue == false)
            #expect(view["members"]?.arrayValue?.count == 2)
            #expect(view["state"]?["code"]?.stringValue == code)
        }
    }

    @Test func removeTakesAMemberOutAndKeepsThemOut() async throws {
        try await withServer { server in
            let (host, bob, code) = try Self.anaAndBob(server.port, game: "snowman")
            let bobID = try #require(bob.you)
            let auth = "Bearer \(server.adminToken.value)"
            let missing = try Self.request(server.port, "POST", "/admin/api/rooms/\(code)/members/p99/remove",
                                           authorization: auth)
            #expect(missing.status == 404)
            #expect(String(decoding: missing.body, as: UTF8.self).contains("no-such-player"))
            #expect(try Self.request(server.port, "POST", "/admin/api/rooms/\(code)/members/\(bobID)/remove",
                                     authorization: auth).status == 200)
            let error = try bob.waitForError()
            #expect(error["code"]?.stringValue == "kicked")
            #expect(error["message"]?.stringValue?.contains("operator") == true)
            let close = try bob.socket.readMessage()
            #expect(close.opcode == 0x8 && close.closeCode == 4001)
            try host.receive { _ in (host.state["members"]?.arrayValue?.count ?? 0) == 1 }
            let chat = host.state["chat"]?.arrayValue ?? []
            #expect(chat.contains { $0["text"]?.stringValue == "Bob was removed by the server's operator" })
            #expect(host.state["bans"]?.arrayValue?.count == 1)
        }
    }

    @Test func closeEndsTheRoomForEveryone() async throws {
        try await withServer { server in
            let (host, bob, code) = try Self.anaAndBob(server.port, game: "scramble")
            let auth = "Bearer \(server.adminToken.value)"
            #expect(try Self.request(server.port, "POST", "/admin/api/rooms/\(code)/close", authorization: auth).status == 200)
            for member in [host, bob] {
                let error = try member.waitForError()
                #expect(error["code"]?.stringValue == "room-closed")
                let close = try member.socket.readMessage()
                #expect(close.opcode == 0x8 && close.closeCode == 4001)
            }
            #expect(try Self.request(server.port, "GET", "/admin/api/rooms/\(code)", authorization: auth).status == 404)
            #expect(try Self.request(server.port, "POST", "/admin/api/rooms/\(code)/close", authorization: auth).status == 404)
            let late = try GameClient.join(port: server.port, code: code, name: "Cleo")
            #expect(late.errors.first?["code"]?.stringValue == "room-not-found")
        }
    }

    @Test func thePageLoadsWithoutTheToken() async throws {
        try await withServer { server in
            for path in ["/admin", "/admin/"] {
                let response = try Self.request(server.port, "GET", path, authorization: nil)
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self).contains("/js/admin/main.js"))
            }
        }
    }

    // MARK: Helpers

    static func request(_ port: Int, _ method: String, _ path: String,
                        authorization: String?) throws -> (status: Int, head: String, body: [UInt8]) {
        let client = try TestClient(port: port)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: x\r\n"
        if let authorization { request += "Authorization: \(authorization)\r\n" }
        try client.send(request + "\r\n")
        return try client.readHTTPResponse()
    }
}
