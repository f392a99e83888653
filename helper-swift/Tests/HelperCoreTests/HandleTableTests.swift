import XCTest
@testable import HelperCore

/// An element reference like AXUIElement: two distinct references can name the same element.
private final class Ref {
    let element: Int
    let pid: Int32
    init(_ element: Int, pid: Int32) {
        self.element = element
        self.pid = pid
    }
}

final class HandleTableTests: XCTestCase {
    private func table(hash: @escaping (Ref) -> Int = { $0.element }) -> HandleTable<Ref> {
        HandleTable(equal: { $0.element == $1.element && $0.pid == $1.pid }, hash: hash, pid: { $0.pid })
    }

    func testTheSameElementAlwaysGetsTheSameHandle() throws {
        let handles = table()
        let first = handles.handle(for: Ref(1, pid: 10))
        XCTAssertEqual(handles.handle(for: Ref(1, pid: 10)), first, "a second reference to the same element")
        XCTAssertNotEqual(handles.handle(for: Ref(2, pid: 10)), first)
        XCTAssertEqual(try handles.element(for: first).element, 1)
        XCTAssertTrue(first.hasPrefix("10."))
    }

    func testElementsWhoseHashesCollideStayApart() throws {
        let handles = table(hash: { _ in 0 })
        let one = handles.handle(for: Ref(1, pid: 10))
        let two = handles.handle(for: Ref(2, pid: 10))
        XCTAssertNotEqual(one, two)
        XCTAssertEqual(try handles.element(for: two).element, 2)
        XCTAssertEqual(handles.handle(for: Ref(1, pid: 10)), one)
    }

    func testAnUnknownHandleIsElementGoneWithAHint() {
        XCTAssertThrowsError(try table().element(for: "10.99")) { error in
            let rpc = error as? RPCError
            XCTAssertEqual(rpc?.code, ErrorCode.elementGone)
            XCTAssertNotNil(rpc?.hint)
        }
    }

    func testForgettingAnAppDropsOnlyItsElementsAndItsHandlesAreNotReused() throws {
        let handles = table()
        let old = handles.handle(for: Ref(1, pid: 10))
        let other = handles.handle(for: Ref(1, pid: 20))
        handles.forget(pid: 10)
        XCTAssertThrowsError(try handles.element(for: old))
        XCTAssertEqual(try handles.element(for: other).pid, 20)
        XCTAssertNotEqual(handles.handle(for: Ref(1, pid: 10)), old)
        XCTAssertEqual(handles.count, 2)
    }

    func testForgettingOneElement() throws {
        let handles = table()
        let gone = handles.handle(for: Ref(1, pid: 10))
        let kept = handles.handle(for: Ref(2, pid: 10))
        handles.forget(gone)
        XCTAssertThrowsError(try handles.element(for: gone))
        XCTAssertEqual(try handles.element(for: kept).element, 2)
        XCTAssertEqual(handles.count, 1)
    }
}
