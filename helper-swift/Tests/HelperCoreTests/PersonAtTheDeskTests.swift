import Foundation
import XCTest
@testable import HelperCore

final class PersonAtTheDeskTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_000)

    func testOffHearsNothingThatStopsInput() throws {
        let desk = PersonAtTheDesk()
        desk.heard(.motion, device: "trackpad", at: start)
        XCTAssertNoThrow(try desk.checkBefore(start))
        XCTAssertNoThrow(try desk.checkDuring(since: start, now: start))
    }

    func testInputInTheQuietTimeRefusesBeforeAnythingIsSent() throws {
        let desk = PersonAtTheDesk()
        desk.configure(on: true, quietMs: 500)
        desk.heard(.key, device: "keyboard", at: start.addingTimeInterval(-0.2))
        XCTAssertThrowsError(try desk.checkBefore(start)) { error in
            let failure = error as? RPCError
            XCTAssertEqual(failure?.code, ErrorCode.personActive)
            XCTAssertEqual(
                failure?.message,
                "the person used the keyboard (keyboard) 200 ms ago, just before this input would have begun, so none was sent")
        }
        // Earlier than the quiet time: the person has stopped.
        XCTAssertNoThrow(try desk.checkBefore(start.addingTimeInterval(0.4)))
    }

    func testInputDuringAnOperationStopsItsRest() throws {
        let desk = PersonAtTheDesk()
        desk.configure(on: true, quietMs: 500)
        XCTAssertNoThrow(try desk.checkDuring(since: start, now: start.addingTimeInterval(1)))
        desk.heard(.button, device: "mouse", at: start.addingTimeInterval(0.5))
        XCTAssertThrowsError(try desk.checkDuring(since: start, now: start.addingTimeInterval(0.6))) { error in
            XCTAssertEqual(
                (error as? RPCError)?.message,
                "the person used the mouse buttons (mouse) 100 ms ago, while this input ran, so the rest was not sent")
        }
        desk.configure(on: false, quietMs: 500)
        XCTAssertNoThrow(try desk.checkDuring(since: start, now: start.addingTimeInterval(0.6)))
    }
}
