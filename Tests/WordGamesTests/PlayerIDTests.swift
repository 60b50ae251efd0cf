import Foundation
import Testing
import WordGames

@Suite struct PlayerIDTests {
    @Test func encodesAsPlainString() throws {
        let json = String(decoding: try JSONEncoder().encode([PlayerID("alice")]), as: UTF8.self)
        #expect(json == #"["alice"]"#)
        #expect(try JSONDecoder().decode(PlayerID.self, from: Data(#""bob""#.utf8)) == "bob")
    }

    @Test func describesItselfByRawValue() {
        #expect(PlayerID("carol").description == "carol")
    }
}
