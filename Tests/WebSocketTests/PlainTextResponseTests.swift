import Testing
import WebSocket

@Suite struct PlainTextResponseTests {
    @Test func formatsCompleteResponseWithLengthAndClose() {
        let bytes = PlainTextResponse.encode(status: 426, message: "expected Sec-WebSocket-Version: 13",
                                             extraHeaders: [("Sec-WebSocket-Version", "13")])
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 426 Upgrade Required\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: 35\r\n"
            + "Connection: close\r\n"
            + "Sec-WebSocket-Version: 13\r\n"
            + "\r\n"
            + "expected Sec-WebSocket-Version: 13\n")
    }

    @Test func countsContentLengthInBytesNotCharacters() {
        let text = String(decoding: PlainTextResponse.encode(status: 400, message: "é"), as: UTF8.self)
        #expect(text.contains("Content-Length: 3\r\n"))
    }

    @Test(arguments: [(400, "Bad Request"), (405, "Method Not Allowed"), (426, "Upgrade Required"),
                      (431, "Request Header Fields Too Large"), (505, "HTTP Version Not Supported")])
    func knowsReasonPhrases(_ status: Int, _ phrase: String) {
        #expect(PlainTextResponse.reasonPhrase(for: status) == phrase)
    }
}
