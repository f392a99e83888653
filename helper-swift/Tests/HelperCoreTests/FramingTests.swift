import XCTest
@testable import HelperCore

final class FramingTests: XCTestCase {
    private func bytes(_ text: String) -> Data { Data(text.utf8) }

    func testAMessageSplitAcrossReadsComesOutWhole() throws {
        var parser = FrameParser()
        XCTAssertEqual(try parser.append(bytes("Content-Len")), [])
        XCTAssertEqual(try parser.append(bytes("gth: 7\r")), [])
        XCTAssertEqual(try parser.append(bytes("\n\r\n{\"a\"")), [])
        XCTAssertEqual(try parser.append(bytes(":1}")), [bytes("{\"a\":1}")])
    }

    func testTwoMessagesInOneReadComeOutInOrder() throws {
        var parser = FrameParser()
        let chunk = bytes("Content-Length: 2\r\n\r\n{}Content-Length: 5\r\n\r\n[1,2]Content-Length: 3")
        XCTAssertEqual(try parser.append(chunk), [bytes("{}"), bytes("[1,2]")])
        XCTAssertEqual(try parser.append(bytes("\r\n\r\n\"x\"")), [bytes("\"x\"")])
    }

    func testContentLengthCountsUTF8BytesAndSurvivesACutInsideACharacter() throws {
        let body = bytes(#"{"text":"héllo ✓ 👋"}"#)
        let framed = frame(body)
        XCTAssertTrue(String(decoding: framed, as: UTF8.self).hasPrefix("Content-Length: \(body.count)\r\n\r\n"))
        XCTAssertGreaterThan(body.count, #"{"text":"héllo ✓ 👋"}"#.count)

        var parser = FrameParser()
        let cut = framed.count - 4  // inside the four bytes of 👋
        XCTAssertEqual(try parser.append(framed.prefix(cut)), [])
        let messages = try parser.append(framed.suffix(from: cut))
        XCTAssertEqual(messages, [body])
        XCTAssertEqual(String(decoding: messages[0], as: UTF8.self), #"{"text":"héllo ✓ 👋"}"#)
    }

    func testHeaderNamesAreCaseInsensitiveAndOtherHeadersAreIgnored() throws {
        var parser = FrameParser()
        let chunk = bytes("content-type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:  2 \r\n\r\n{}")
        XCTAssertEqual(try parser.append(chunk), [bytes("{}")])
    }

    func testAHeaderWithoutALengthIsAnError() {
        var parser = FrameParser()
        XCTAssertThrowsError(try parser.append(bytes("Content-Type: x\r\n\r\n{}"))) { error in
            XCTAssertEqual(error as? FramingError, .missingContentLength("Content-Type: x"))
        }
        var other = FrameParser()
        XCTAssertThrowsError(try other.append(bytes("Content-Length: -1\r\n\r\n"))) { error in
            XCTAssertEqual(error as? FramingError, .badContentLength("-1"))
        }
    }
}
