import Foundation
import XCTest
import HelperCore

final class AttributeKeyTests: XCTestCase {
    private let title = AttributeKey<String>.string("AXTitle")
    private let enabled = AttributeKey<Bool>.bool("AXEnabled")
    private let value = AttributeKey<Double>.number("AXValue")

    func testAKeyReadsItsValueAsItsType() {
        let read: [String: AnyObject] = [
            "AXTitle": "Save" as NSString, "AXEnabled": NSNumber(value: false), "AXValue": NSNumber(value: 0.5),
        ]
        XCTAssertEqual(read[title], "Save")
        XCTAssertEqual(read[enabled], false)
        XCTAssertEqual(read[value], 0.5)
    }

    func testAnAbsentAttributeOrOneOfAnotherTypeReadsAsNil() {
        let read: [String: AnyObject] = ["AXTitle": NSNumber(value: 3), "AXValue": "high" as NSString]
        XCTAssertNil(read[title])
        XCTAssertNil(read[value])
        XCTAssertNil(read[enabled])
        XCTAssertNil(title.decode(nil))
    }
}
