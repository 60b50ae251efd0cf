import Testing
import WebSocket

@Suite struct HTTPResponseTests {
    @Test func formatsRejectionWithLengthAndClose() {
        let bytes = HTTPResponse.rejection(status: 426, message: "expected Sec-WebSocket-Version: 13",
                                           extraHeaders: [("Sec-WebSocket-Version", "13")])
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 426 Upgrade Required\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
            + "Content-Length: 35\r\n"
            + "Connection: close\r\n"
            + "\r\n"
            + "expected Sec-WebSocket-Version: 13\n")
    }

    @Test func countsContentLengthInBytesNotCharacters() {
        let text = String(decoding: HTTPResponse.rejection(status: 400, message: "é"), as: UTF8.self)
        #expect(text.contains("Content-Length: 3\r\n"))
    }

    @Test func keepAliveResponseSaysSoAndHeadOnlyOmitsTheBody() {
        let response = HTTPResponse.text("hi", status: 200)
        #expect(String(decoding: response.serialized(keepAlive: true), as: UTF8.self) == "HTTP/1.1 200 OK\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: 2\r\n"
            + "Connection: keep-alive\r\n"
            + "\r\n"
            + "hi")
        let head = String(decoding: response.serialized(keepAlive: false, headOnly: true), as: UTF8.self)
        #expect(head.hasSuffix("Content-Length: 2\r\nConnection: close\r\n\r\n"))
    }

    /// RFC 9110 §15's phrases; 413 is "Content Too Large" there (RFC 7231 said "Payload Too Large").
    @Test(arguments: [(400, "Bad Request"), (405, "Method Not Allowed"), (408, "Request Timeout"),
                      (413, "Content Too Large"), (426, "Upgrade Required"), (431, "Request Header Fields Too Large"),
                      (503, "Service Unavailable"), (505, "HTTP Version Not Supported"), (299, "Status 299")])
    func knowsReasonPhrases(_ status: Int, _ phrase: String) {
        #expect(HTTPResponse.reasonPhrase(status) == phrase)
    }
}
