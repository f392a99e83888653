#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// An element handed from one lane to another. AXUIElement is an immutable CF reference and the AX API may be
/// called from any thread.
struct AXRef: @unchecked Sendable {
    let element: AXUIElement
}

/// Thin, throwing wrappers of the AX C API: every failure becomes the protocol's error, and an attribute the
/// element lacks (or has no value for) reads as nil rather than failing.
enum AX {
    /// How long one AX call may wait for an app before it gives up (cannotComplete).
    static let messagingTimeout: Float = 2

    /// The protocol's error for a failed AX call; `doing` says what was being done, for the message.
    static func failure(_ code: AXError, _ doing: String) -> RPCError {
        switch code {
        case .invalidUIElement:
            return RPCError(
                ErrorCode.elementGone,
                "the element is gone (\(doing))",
                hint: "it was closed or rebuilt; take a new snapshot and use its refs"
            )
        case .cannotComplete:
            return RPCError(
                ErrorCode.timeout,
                "the app did not answer in time (\(doing))",
                hint: "it may be busy or showing a modal dialog; wait and try again, or look at its dialogs"
            )
        case .apiDisabled:
            return Privacy.accessibility.denied("reading and operating apps")
        case .actionUnsupported:
            return RPCError(ErrorCode.actionFailed, "the element does not support this (\(doing))")
        case .notImplemented:
            return RPCError(
                ErrorCode.notAvailable,
                "the app does not implement accessibility for this (\(doing))",
                hint: "use input (click, type) on its window instead"
            )
        default:
            return RPCError(ErrorCode.failed, "\(doing) failed (AXError \(code.rawValue))")
        }
    }

    static func check(_ code: AXError, _ doing: String) throws {
        if code != .success { throw failure(code, doing) }
    }

    /// noValue and attributeUnsupported mean "the element has none", not an error.
    private static func isAbsent(_ code: AXError) -> Bool {
        code == .noValue || code == .attributeUnsupported
    }

    /// One attribute, typed by its key: nil when the element lacks it or its value has another type.
    static func read<Value>(_ element: AXUIElement, _ key: AttributeKey<Value>) throws -> Value? {
        key.decode(try attribute(element, key.name))
    }

    private static func attribute(_ element: AXUIElement, _ name: String) throws -> CFTypeRef? {
        var value: CFTypeRef?
        let code = AXUIElementCopyAttributeValue(element, name as CFString, &value)
        if code == .success { return value }
        if isAbsent(code) { return nil }
        throw failure(code, "reading \(name)")
    }

    /// Several attributes in one round trip, by name; the ones the element lacks are left out.
    static func attributes(_ element: AXUIElement, _ names: [String]) throws -> [String: CFTypeRef] {
        var values: CFArray?
        let code = AXUIElementCopyMultipleAttributeValues(
            element,
            names as CFArray,
            AXCopyMultipleAttributeOptions(rawValue: 0),
            &values
        )
        try check(code, "reading attributes")
        guard let array = values as? [AnyObject], array.count == names.count else {
            throw RPCError(ErrorCode.failed, "the app answered a different number of attributes than asked")
        }
        var found: [String: CFTypeRef] = [:]
        for (name, value) in zip(names, array) {
            if let present = try present(value, name) { found[name] = present }
        }
        return found
    }

    /// A batched value, or nil when it stands for a missing attribute (NSNull, or an AXValue of type axError).
    /// The errors that concern the whole element (gone, app busy, no permission) are thrown.
    private static func present(_ value: AnyObject, _ name: String) throws -> CFTypeRef? {
        if value is NSNull { return nil }
        guard CFGetTypeID(value) == AXValueGetTypeID() else { return value }
        let axValue = value as! AXValue
        guard AXValueGetType(axValue) == .axError else { return value }
        var raw: Int32 = 0
        guard AXValueGetValue(axValue, .axError, &raw), let code = AXError(rawValue: raw) else { return nil }
        if code == .invalidUIElement || code == .cannotComplete || code == .apiDisabled {
            throw failure(code, "reading \(name)")
        }
        return nil
    }

    static func count<Value>(_ element: AXUIElement, _ key: AttributeKey<[Value]>) throws -> Int {
        var count: CFIndex = 0
        let code = AXUIElementGetAttributeValueCount(element, key.name as CFString, &count)
        if code == .success { return count }
        if isAbsent(code) || code == .illegalArgument { return 0 }
        throw failure(code, "counting \(key.name)")
    }

    /// Up to `limit` elements of an array attribute (AXChildren) from `index` on: one round trip however long the
    /// array is, and no more transferred than asked.
    static func elements(
        _ element: AXUIElement,
        _ key: AttributeKey<[AXUIElement]>,
        from index: Int,
        limit: Int
    ) throws -> [AXUIElement] {
        guard limit > 0 else { return [] }
        var values: CFArray?
        let code = AXUIElementCopyAttributeValues(element, key.name as CFString, index, limit, &values)
        if code == .success { return values as? [AXUIElement] ?? [] }
        if isAbsent(code) || code == .illegalArgument { return [] }
        throw failure(code, "reading \(key.name)")
    }

    static func attributeNames(_ element: AXUIElement) throws -> [String] {
        var names: CFArray?
        let code = AXUIElementCopyAttributeNames(element, &names)
        if code == .success { return names as? [String] ?? [] }
        if isAbsent(code) { return [] }
        throw failure(code, "listing its attributes")
    }

    static func actionNames(_ element: AXUIElement) throws -> [String] {
        var names: CFArray?
        let code = AXUIElementCopyActionNames(element, &names)
        if code == .success { return names as? [String] ?? [] }
        if isAbsent(code) || code == .actionUnsupported { return [] }
        throw failure(code, "listing its actions")
    }

    static func isSettable<Value>(_ element: AXUIElement, _ key: AttributeKey<Value>) throws -> Bool {
        var settable = DarwinBoolean(false)
        let code = AXUIElementIsAttributeSettable(element, key.name as CFString, &settable)
        if code == .success { return settable.boolValue }
        if isAbsent(code) { return false }
        throw failure(code, "checking whether \(key.name) can be set")
    }

    static func set<Value>(_ element: AXUIElement, _ key: AttributeKey<Value>, _ value: CFTypeRef) throws {
        try check(AXUIElementSetAttributeValue(element, key.name as CFString, value), "setting \(key.name)")
    }

    static func perform(_ element: AXUIElement, _ action: String) throws {
        try check(AXUIElementPerformAction(element, action as CFString), "performing \(action)")
    }

    static func pid(_ element: AXUIElement) -> pid_t {
        var pid: pid_t = 0
        _ = AXUIElementGetPid(element, &pid)
        return pid
    }

    // MARK: - Reading CF values

    static func string(_ value: CFTypeRef?) -> String? {
        value as? String
    }

    static func bool(_ value: CFTypeRef?) -> Bool? {
        (value as? NSNumber)?.boolValue
    }

    static func number(_ value: CFTypeRef?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    /// True for a CFBoolean, which bridges to NSNumber like any number does.
    static func isBoolean(_ value: CFTypeRef) -> Bool {
        CFGetTypeID(value) == CFBooleanGetTypeID()
    }

    static func element(_ value: CFTypeRef?) -> AXUIElement? {
        guard let value, CFGetTypeID(value) == AXUIElementGetTypeID() else { return nil }
        return (value as! AXUIElement)
    }

    static func point(_ value: CFTypeRef?) -> CGPoint? {
        guard let value, CFGetTypeID(value) == AXValueGetTypeID() else { return nil }
        var point = CGPoint.zero
        return AXValueGetValue(value as! AXValue, .cgPoint, &point) ? point : nil
    }

    static func size(_ value: CFTypeRef?) -> CGSize? {
        guard let value, CFGetTypeID(value) == AXValueGetTypeID() else { return nil }
        var size = CGSize.zero
        return AXValueGetValue(value as! AXValue, .cgSize, &size) ? size : nil
    }

    /// The frame in a batched read that asked for AXPosition and AXSize.
    static func bounds(_ values: [String: CFTypeRef]) -> Bounds? {
        guard let origin = values[AXKey.position], let extent = values[AXKey.size] else { return nil }
        return Bounds(
            x: Double(origin.x),
            y: Double(origin.y),
            width: Double(extent.width),
            height: Double(extent.height)
        )
    }

    /// An attribute's value in words, for ElementDetail.attributes; nil for values with no useful text.
    static func describe(_ value: CFTypeRef) -> String? {
        if let text = value as? String { return text }
        if isBoolean(value) { return bool(value).map { $0 ? "true" : "false" } }
        if let number = value as? NSNumber { return number.stringValue }
        if let url = value as? URL { return url.absoluteString }
        if CFGetTypeID(value) == AXUIElementGetTypeID() { return "element" }
        if let array = value as? [AnyObject] { return "\(array.count) items" }
        guard CFGetTypeID(value) == AXValueGetTypeID() else { return nil }
        let axValue = value as! AXValue
        switch AXValueGetType(axValue) {
        case .cgPoint:
            var p = CGPoint.zero
            return AXValueGetValue(axValue, .cgPoint, &p) ? "\(p.x),\(p.y)" : nil
        case .cgSize:
            var s = CGSize.zero
            return AXValueGetValue(axValue, .cgSize, &s) ? "\(s.width)x\(s.height)" : nil
        case .cgRect:
            var r = CGRect.zero
            return AXValueGetValue(axValue, .cgRect, &r)
                ? "\(r.origin.x),\(r.origin.y) \(r.size.width)x\(r.size.height)" : nil
        case .cfRange:
            var range = CFRange(location: 0, length: 0)
            return AXValueGetValue(axValue, .cfRange, &range) ? "\(range.location)+\(range.length)" : nil
        default:
            return nil
        }
    }
}
#endif
