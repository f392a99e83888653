import XCTest
@testable import HelperCore

private struct AddParams: Codable, Sendable {
    let a: Int
    let b: Int
}

private struct AddResult: Codable, Sendable {
    let sum: Int
}

private struct Unexpected: Error {}

final class DispatcherTests: XCTestCase {
    private func dispatcher() -> Dispatcher {
        let dispatcher = Dispatcher(input: FileHandle.nullDevice, output: FileHandle.nullDevice)
        dispatcher.on("math.add") { (p: AddParams) in AddResult(sum: p.a + p.b) }
        dispatcher.on(AXSnapshot.self) { _ in
            throw RPCError(ErrorCode.elementGone, "no element has the handle 9.9", hint: "take a new snapshot")
        }
        dispatcher.on(AppsList.self) { _ in AppsListResult(apps: []) }
        dispatcher.on(AXSetValue.self) { _ in
            throw RPCError(ErrorCode.valueNotSettable, "cannot set this value: 12 is outside 0...10", notTaken: true)
        }
        dispatcher.on(InputPointer.self) { _ in throw Unexpected() }
        return dispatcher
    }

    /// The answer to one request, as a JSON object.
    private func answer(_ request: String) async throws -> [String: Any] {
        let message = Data(request.utf8)
        let header = try JSONSerialization.jsonObject(with: message) as? [String: Any]
        let id = (header?["id"] as? Int).map(RequestID.number) ?? RequestID.string(header?["id"] as? String ?? "")
        let response = await dispatcher().respond(to: message, method: header?["method"] as? String, id: id)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: response) as? [String: Any])
    }

    private func error(of response: [String: Any]) throws -> (code: Int, message: String, hint: String?) {
        XCTAssertNil(response["result"])
        let error = try XCTUnwrap(response["error"] as? [String: Any])
        let data = error["data"] as? [String: Any]
        return (try XCTUnwrap(error["code"] as? Int), try XCTUnwrap(error["message"] as? String), data?["hint"] as? String)
    }

    func testARequestIsAnsweredWithItsHandlersResultAndItsOwnId() async throws {
        let response = try await answer(#"{"jsonrpc":"2.0","id":7,"method":"math.add","params":{"a":2,"b":3}}"#)
        XCTAssertEqual(response["jsonrpc"] as? String, "2.0")
        XCTAssertEqual(response["id"] as? Int, 7)
        XCTAssertEqual(response["result"] as? [String: Int], ["sum": 5])

        let named = try await answer(#"{"jsonrpc":"2.0","id":"r1","method":"math.add","params":{"a":1,"b":1}}"#)
        XCTAssertEqual(named["id"] as? String, "r1")
    }

    func testAbsentParamsReadAsAnEmptyObject() async throws {
        let response = try await answer(#"{"jsonrpc":"2.0","id":1,"method":"apps.list"}"#)
        XCTAssertEqual(response["result"] as? [String: [Int]], ["apps": []])
    }

    func testAnUnknownMethodIsMethodNotFound() async throws {
        let failure = try error(of: try await answer(#"{"jsonrpc":"2.0","id":1,"method":"ax.nothing","params":{}}"#))
        XCTAssertEqual(failure.code, -32601)
        XCTAssertEqual(failure.message, "unknown method ax.nothing")
    }

    func testParamsThatDoNotDecodeAreInvalidParamsSayingWhere() async throws {
        let missing = try error(of: try await answer(#"{"jsonrpc":"2.0","id":1,"method":"math.add","params":{"a":1}}"#))
        XCTAssertEqual(missing.code, -32602)
        XCTAssertEqual(missing.message, "invalid params: params.b is missing")

        let wrongType = try error(
            of: try await answer(#"{"jsonrpc":"2.0","id":1,"method":"math.add","params":{"a":"1","b":2}}"#)
        )
        XCTAssertEqual(wrongType.code, -32602)
        XCTAssertEqual(wrongType.message, "invalid params: params.a is not an integer")
    }

    func testParamsOutOfTheProtocolsRangesAreInvalidParams() async throws {
        let request = #"{"jsonrpc":"2.0","id":1,"method":"ax.snapshot","params":"#
            + #"{"root":"1.1","depth":65,"maxNodes":10,"includeHidden":false,"maxValueLength":100}}"#
        let failure = try error(of: try await answer(request))
        XCTAssertEqual(failure.code, -32602)
        XCTAssertEqual(failure.message, "depth must be within 0...64, got 65")
    }

    func testAHandlersRPCErrorIsTheAnswerWithItsHint() async throws {
        let request = #"{"jsonrpc":"2.0","id":3,"method":"ax.snapshot","params":"#
            + #"{"root":"9.9","depth":1,"maxNodes":10,"includeHidden":false,"maxValueLength":100}}"#
        let failure = try error(of: try await answer(request))
        XCTAssertEqual(failure.code, ErrorCode.elementGone)
        XCTAssertEqual(failure.message, "no element has the handle 9.9")
        XCTAssertEqual(failure.hint, "take a new snapshot")
    }

    /// The flags the server acts on (notTaken: the value was wrong; typeInstead: it types the text) travel in
    /// `data` beside the hint, and only when set.
    func testAnErrorsFlagsAreInItsDataOnlyWhenSet() async throws {
        let response = try await answer(#"{"jsonrpc":"2.0","id":4,"method":"ax.setValue","params":{"id":"1.2","value":12}}"#)
        let error = try XCTUnwrap(response["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? Int, ErrorCode.valueNotSettable)
        let data = try XCTUnwrap(error["data"] as? [String: Any])
        XCTAssertEqual(data["notTaken"] as? Bool, true)
        XCTAssertNil(data["typeInstead"])
        XCTAssertNil(data["hint"])

        let gone = try await answer(
            #"{"jsonrpc":"2.0","id":5,"method":"ax.snapshot","params":"#
                + #"{"root":"9.9","depth":1,"maxNodes":10,"includeHidden":false,"maxValueLength":100}}"#
        )
        XCTAssertEqual((gone["error"] as? [String: Any])?["data"] as? [String: String], ["hint": "take a new snapshot"])
    }

    func testAnyOtherHandlerErrorIsFailed() async throws {
        let failure = try error(of: try await answer(#"{"jsonrpc":"2.0","id":1,"method":"input.pointer","params":{}}"#))
        XCTAssertEqual(failure.code, -32017)
        XCTAssertTrue(failure.message.hasPrefix("input.pointer failed: "), failure.message)
        XCTAssertNil(failure.hint)
    }

    /// Through real pipes: requests framed on stdin, answers and notifications framed on stdout.
    func testRunAnswersFramedRequestsOnItsOutputAndSendsNotifications() throws {
        let input = Pipe()
        let output = Pipe()
        let dispatcher = Dispatcher(input: input.fileHandleForReading, output: output.fileHandleForWriting)
        dispatcher.on("math.add") { (p: AddParams) in AddResult(sum: p.a + p.b) }
        let finished = expectation(description: "run returns when stdin closes")
        Thread {
            dispatcher.run()
            finished.fulfill()
        }.start()

        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"math.add","params":{"a":1,"b":2}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"math.add","params":{"a":"x","b":2}}"#,
            #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}"#,
        ]
        var stream = Data()
        for request in requests { stream.append(frame(Data(request.utf8))) }
        // Written in two pieces cut inside the first header, as a pipe may deliver them.
        input.fileHandleForWriting.write(stream.prefix(5))
        input.fileHandleForWriting.write(stream.dropFirst(5))
        dispatcher.notify(ObserveChanged.self, ObserveChangedParams(pid: 42, kinds: ["children-changed"], count: 3))

        var parser = FrameParser()
        var messages: [[String: Any]] = []
        while messages.count < 3 {
            let chunk = output.fileHandleForReading.availableData
            XCTAssertFalse(chunk.isEmpty, "the output closed early")
            if chunk.isEmpty { break }
            for message in try parser.append(chunk) {
                messages.append(try XCTUnwrap(JSONSerialization.jsonObject(with: message) as? [String: Any]))
            }
        }
        input.fileHandleForWriting.closeFile()
        wait(for: [finished], timeout: 30)

        let answers = Dictionary(uniqueKeysWithValues: messages.compactMap { m in (m["id"] as? Int).map { ($0, m) } })
        XCTAssertEqual(answers[1]?["result"] as? [String: Int], ["sum": 3])
        XCTAssertEqual((answers[2]?["error"] as? [String: Any])?["code"] as? Int, -32602)
        let notification = try XCTUnwrap(messages.first { $0["method"] as? String == "observe.changed" })
        XCTAssertNil(notification["id"])
        let params = try JSONSerialization.data(withJSONObject: try XCTUnwrap(notification["params"]))
        XCTAssertEqual(
            try JSONDecoder().decode(ObserveChangedParams.self, from: params),
            ObserveChangedParams(pid: 42, kinds: ["children-changed"], count: 3)
        )
    }

    func testEveryMethodIsBoundToOneName() {
        let names = allMethods.map { $0.name }
        XCTAssertEqual(names.count, 42)
        XCTAssertEqual(Set(names).count, names.count)
    }
}
