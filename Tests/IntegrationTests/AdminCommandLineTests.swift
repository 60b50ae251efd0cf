import Testing

/// The dashboard's link in the start lines: with a token made at start, shown once; with `--admin-token`, never.
@Suite struct AdminCommandLineTests {
    @Test func aGeneratedTokenIsPrintedOnceAsTheAdminLink() throws {
        let result = try CommandLineTests().run(["--host", "127.0.0.1", "--port", "0"], untilLine: true)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("WordRooms is running at http://127.0.0.1:") == true)
        let admin = try #require(lines.first { $0.hasPrefix("Admin: ") })
        let token = try #require(admin.split(separator: "#token=").last.map(String.init))
        #expect(admin.hasPrefix("Admin: http://127.0.0.1:") && admin.contains("/admin#token="))
        #expect(token.count == 48 && token.allSatisfy { $0.isHexDigit })
        #expect(result.output.components(separatedBy: token).count == 2, "printed once")
        #expect(!result.errors.contains(token))
    }

    @Test func aGivenTokenIsNeverPrinted() throws {
        let secret = "operator-secret-0123456789"
        let result = try CommandLineTests().run(["--host", "127.0.0.1", "--port", "0", "--admin-token", secret],
                                                untilLine: true)
        #expect(result.output.contains("/admin (the token given with --admin-token)"))
        #expect(!result.output.contains(secret) && !result.errors.contains(secret))
    }

    @Test func aWeakTokenIsRefusedWithoutRepeatingIt() throws {
        let result = try CommandLineTests().run(["--admin-token", "weak-secret"])
        #expect(result.status != 0)
        #expect((result.output + result.errors).contains("--admin-token"))
        #expect(!(result.output + result.errors).contains("weak-secret"))
    }
}
