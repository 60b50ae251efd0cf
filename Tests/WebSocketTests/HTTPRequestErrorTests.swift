import Testing
import WebSocket

@Suite struct HTTPRequestErrorTests {
    @Test(arguments: [(HTTPRequestError.malformed("x"), 400), (.headersTooLarge, 431), (.versionNotSupported, 505)])
    func mapsToStatus(_ error: HTTPRequestError, _ status: Int) {
        #expect(error.status == status)
        #expect(String(decoding: error.response, as: UTF8.self).hasPrefix("HTTP/1.1 \(status) "))
    }
}
