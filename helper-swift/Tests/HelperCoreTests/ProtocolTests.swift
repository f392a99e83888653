import XCTest
@testable import HelperCore

/// JSON as the TypeScript side writes it (src/helper-client/protocol.ts), decoded and encoded back unchanged.
final class ProtocolTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// Both sides as parsed JSON, so that key order and number spelling do not matter.
    private func assertSameJSON(_ encoded: Data, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let actual = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        let wanted = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
        XCTAssertEqual(actual, wanted, String(decoding: encoded, as: UTF8.self), file: file, line: line)
    }

    func testElementValueIsAPlainStringNumberOrBoolean() throws {
        XCTAssertEqual(try decode([ElementValue].self, #"["abc", 3.5, 0, true, false, ""]"#), [
            .string("abc"), .number(3.5), .number(0), .bool(true), .bool(false), .string(""),
        ])
        let encoded = try encodeJSON([ElementValue.string("1"), .number(1), .bool(true)])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"["1",1,true]"#)
        XCTAssertThrowsError(try decode(ElementValue.self, #"{"a":1}"#))
        XCTAssertThrowsError(try decode(ElementValue.self, "null"))
    }

    private let tree = """
    {"id":"123.1","nativeRole":"AXWindow","name":"Untitled","states":["focused","active"],
     "bounds":{"x":0,"y":25,"width":800.5,"height":600},"childCount":2,"pid":123,
     "children":[
       {"id":"123.2","nativeRole":"AXTextField","subrole":"AXSecureTextField","name":"Password",
        "states":["editable","secure"],"childCount":0,"pid":123},
       {"id":"123.3","nativeRole":"AXTextArea","name":"","value":"héllo","valueTruncated":true,
        "description":"notes","identifier":"notes-field","states":["editable","multiline"],"childCount":0,"pid":123,
        "children":[]}
     ]}
    """

    func testElementNodeRoundTripsTheTypeScriptShape() throws {
        let node = try decode(ElementNode.self, tree)
        XCTAssertEqual(node.info.nativeRole, "AXWindow")
        XCTAssertEqual(node.info.states, [.focused, .active])
        XCTAssertEqual(node.info.bounds, Bounds(x: 0, y: 25, width: 800.5, height: 600))
        XCTAssertEqual(node.children?.count, 2)
        let secure = try XCTUnwrap(node.children?.first)
        XCTAssertEqual(secure.info.subrole, "AXSecureTextField")
        XCTAssertNil(secure.info.value)
        XCTAssertNil(secure.children, "children absent means not walked")
        XCTAssertEqual(node.children?.last?.info.value, .string("héllo"))
        XCTAssertEqual(node.children?.last?.children, [])

        try assertSameJSON(try encodeJSON(node), tree)
    }

    func testAnUnknownStateIsRefused() {
        XCTAssertThrowsError(
            try decode(ElementInfo.self, #"{"id":"1","nativeRole":"x","name":"","states":["shiny"],"childCount":0,"pid":1}"#)
        )
    }

    func testElementDetailIsFlatWithActionsAndAttributes() throws {
        let json = """
        {"id":"5.1","nativeRole":"AXButton","name":"OK","states":[],"childCount":0,"pid":5,
         "actions":["AXPress"],"attributes":{"AXHelp":"Confirms"}}
        """
        let detail = try decode(ElementDetail.self, json)
        XCTAssertEqual(detail.info.name, "OK")
        XCTAssertEqual(detail.actions, ["AXPress"])
        try assertSameJSON(try encodeJSON(ElementResult(element: detail)), #"{"element":\#(json)}"#)
    }

    /// The fields protocol.ts added for web pages, long lists, detail reads and apps that do not answer.
    func testLaterOptionalFieldsRoundTrip() throws {
        let heading = #"{"id":"5.2","nativeRole":"AXHeading","name":"Order form","states":[],"level":1,"childCount":1,"pid":5}"#
        XCTAssertEqual(try decode(ElementInfo.self, heading).level, 1)
        try assertSameJSON(try encodeJSON(try decode(ElementInfo.self, heading)), heading)

        let list = #"{"id":"5.3","nativeRole":"AXList","name":"","states":[],"childCount":10000,"#
            + #""shownChildren":{"from":4120,"count":21},"pid":5,"children":[]}"#
        let node = try decode(ElementNode.self, list)
        XCTAssertEqual(node.info.shownChildren, ShownChildren(from: 4120, count: 21))
        try assertSameJSON(try encodeJSON(node), list)

        let slider = #"{"id":"5.4","nativeRole":"AXSlider","name":"Volume","value":3,"states":[],"childCount":0,"#
            + #""pid":5,"actions":[],"attributes":{},"indexInParent":2,"range":{"min":0,"max":10}}"#
        let detail = try decode(ElementDetail.self, slider)
        XCTAssertEqual(detail.indexInParent, 2)
        XCTAssertEqual(detail.range, ValueRange(min: 0, max: 10))
        try assertSameJSON(try encodeJSON(detail), slider)

        let app = #"{"pid":7,"name":"Stuck","id":"7.0","active":false,"notAnswering":"stopped"}"#
        XCTAssertEqual(try decode(AppInfo.self, app).notAnswering, .stopped)
        try assertSameJSON(try encodeJSON(try decode(AppInfo.self, app)), app)
        XCTAssertThrowsError(try decode(AppInfo.self, app.replacingOccurrences(of: "stopped", with: "asleep")))
    }

    func testAMissingElementIsAnExplicitNull() throws {
        try assertSameJSON(try encodeJSON(OptionalElementResult(element: nil)), #"{"element":null}"#)
    }

    func testOptionalResultFieldsAreLeftOutWhenAbsent() throws {
        XCTAssertEqual(String(decoding: try encodeJSON(SetValueResult(value: nil)), as: UTF8.self), "{}")
        XCTAssertEqual(String(decoding: try encodeJSON(ClipboardReadResult(text: nil, types: [])), as: UTF8.self), #"{"types":[]}"#)
    }

    func testCaptureTargetIsExactlyOneOfDisplayWindowOrRegion() throws {
        XCTAssertEqual(try decode(CaptureTarget.self, #"{"display":"1"}"#), .display("1"))
        XCTAssertEqual(try decode(CaptureTarget.self, #"{"window":"77"}"#), .window("77"))
        XCTAssertEqual(
            try decode(CaptureTarget.self, #"{"region":{"x":1,"y":2,"width":3,"height":4}}"#),
            .region(Bounds(x: 1, y: 2, width: 3, height: 4))
        )
        XCTAssertThrowsError(try decode(CaptureTarget.self, #"{"display":"1","window":"2"}"#))
        XCTAssertThrowsError(try decode(CaptureTarget.self, #"{"display":"1","extra":true}"#))
        XCTAssertThrowsError(try decode(CaptureTarget.self, #"{}"#))
        try assertSameJSON(try encodeJSON(CaptureTarget.window("77")), #"{"window":"77"}"#)
    }

    func testMethodParamsDecodeAsTheServerSendsThem() throws {
        let capture = try decode(
            CaptureParams.self,
            #"{"target":{"display":"69732800"},"format":"jpeg","quality":80,"maxLongEdge":1568}"#
        )
        XCTAssertEqual(capture.target, .display("69732800"))
        XCTAssertEqual(capture.format, .jpeg)

        let key = try decode(KeyParams.self, #"{"code":36,"modifiers":["command","shift"],"repeat":2}"#)
        XCTAssertEqual(key.repeatCount, 2)
        XCTAssertEqual(key.modifiers, [.command, .shift])

        let click = try decode(ClickParams.self, #"{"at":{"x":10.5,"y":20},"button":"right","count":2,"modifiers":["super"]}"#)
        XCTAssertEqual(click.button, .right)
        XCTAssertEqual(click.modifiers, [.super])

        let snapshot = try decode(
            SnapshotParams.self,
            #"{"root":"1.1","depth":8,"maxNodes":2000,"includeHidden":false,"maxValueLength":200}"#
        )
        XCTAssertNil(snapshot.includeBounds)
        XCTAssertEqual(try decode(FocusedParams.self, "{}").pid, nil)
        XCTAssertEqual(try decode(WindowsListParams.self, #"{"pid":12,"includeMinimized":true}"#).pid, 12)
        XCTAssertEqual(try decode(SetValueParams.self, #"{"id":"1.2","value":false}"#).value, .bool(false))
    }

    func testValidationFollowsTheProtocolsRanges() throws {
        XCTAssertNoThrow(try decode(TypeParams.self, #"{"text":"hi","delayMs":0}"#).validate())
        XCTAssertThrowsError(try decode(TypeParams.self, #"{"text":"hi","delayMs":1001}"#).validate())
        XCTAssertThrowsError(try decode(ClickParams.self, #"{"at":{"x":0,"y":0},"button":"left","count":4,"modifiers":[]}"#).validate())
        XCTAssertThrowsError(try decode(HandleParams.self, #"{"id":""}"#).validate()) { error in
            XCTAssertEqual((error as? RPCError)?.code, ErrorCode.invalidParams)
        }
    }

    func testHelloResultHasTheHandshakesShape() throws {
        let available = Capability(available: true, detail: "granted")
        let hello = HelloResult(
            protocolVersion: PROTOCOL_VERSION,
            helperVersion: "0.1.0",
            platform: .darwin,
            capabilities: Capabilities(accessibility: available, display: available, input: available, screenCapture: available)
        )
        let capability = #"{"available":true,"detail":"granted"}"#
        try assertSameJSON(try encodeJSON(hello), """
        {"protocolVersion":1,"helperVersion":"0.1.0","platform":"darwin","capabilities":
         {"accessibility":\(capability),"display":\(capability),"input":\(capability),"screenCapture":\(capability)}}
        """)
    }

    func testRecordedInputLeavesOutWhatAPressDoesNotHave() throws {
        let click = RecordedInput(kind: .buttonDown, button: .left, at: Point(x: 10, y: 20.5), modifiers: [], time: 1000)
        try assertSameJSON(try encodeJSON(click), #"""
        {"kind":"buttonDown","button":"left","at":{"x":10,"y":20.5},"modifiers":[],"time":1000}
        """#)
        let key = RecordedInput(kind: .keyDown, code: 0, text: "A", modifiers: [.shift], time: 1001)
        try assertSameJSON(try encodeJSON(key), #"{"kind":"keyDown","code":0,"text":"A","modifiers":["shift"],"time":1001}"#)
        try assertSameJSON(try encodeJSON(RecordStopResult(events: 2)), #"{"events":2}"#)
    }
}
