import Testing
@testable import Bots

@Suite struct FormattingTests {
    @Test(arguments: [(1.005, 2, "1.00"), (2.5, 0, "3"), (-0.25, 1, "-0.3"), (-0.01, 1, "0.0"), (1234.5678, 3, "1234.568"),
                      (7, 2, "7.00")])
    func fixedDecimals(value: Double, digits: Int, expected: String) {
        // 1.005 is 1.00499999... in binary, so it rounds down.
        #expect(formatFixed(value, digits) == expected)
    }

    @Test(arguments: [(UInt64(0), "0us"), (999, "999us"), (1000, "1.00ms"), (12_345, "12.35ms"), (2_500_000, "2.50s")])
    func latencies(microseconds: UInt64, expected: String) {
        #expect(formatMicroseconds(microseconds) == expected)
    }

    @Test func bytesAndWholeNumbers() {
        #expect(formatBytes(512) == "512 B")
        #expect(formatBytes(1536) == "1.5 KiB")
        #expect(formatBytes(3 * 1024 * 1024) == "3.0 MiB")
        #expect(formatNumber(60) == "60")
        #expect(formatNumber(0.5) == "0.5")
        #expect(formatFixed(.nan, 1) == "n/a")
    }
}
