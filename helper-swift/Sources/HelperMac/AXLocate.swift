#if canImport(ApplicationServices)
import AppKit
@preconcurrency import ApplicationServices
import HelperCore

/// ax.focused and ax.elementAt: an element found through an app or the system-wide element, then read on its
/// own app's lane.
enum AXLocate {
    /// Values are read this long, as for ax.ancestors.
    private static let valueLength = 200

    static func focused(_ params: FocusedParams) async throws -> OptionalElementResult {
        if let pid = params.pid, NSRunningApplication(processIdentifier: pid) == nil {
            return OptionalElementResult(element: nil)
        }
        let found = try await AppLanes.shared.run(params.pid ?? AppLanes.systemWide) { () -> AXRef? in
            let root = params.pid.map { AppLanes.shared.application($0) } ?? AXUIElementCreateSystemWide()
            return try AX.read(root, AXKey.focusedUIElement).map { AXRef(element: $0) }
        }
        return try await read(found)
    }

    static func elementAt(_ params: ElementAtParams) async throws -> OptionalElementResult {
        let found = try await AppLanes.shared.run(AppLanes.systemWide) { () -> AXRef? in
            var hit: AXUIElement?
            let code = AXUIElementCopyElementAtPosition(
                AXUIElementCreateSystemWide(),
                Float(params.x),
                Float(params.y),
                &hit
            )
            if code == .noValue || code == .illegalArgument { return nil }
            try AX.check(code, "looking up the element at \(params.x),\(params.y)")
            return hit.map { AXRef(element: $0) }
        }
        return try await read(found)
    }

    /// The element read on its app's lane; one that went away meanwhile is no element.
    private static func read(_ found: AXRef?) async throws -> OptionalElementResult {
        guard let found else { return OptionalElementResult(element: nil) }
        do {
            let info = try await AppLanes.shared.run(AX.pid(found.element)) {
                try ElementReader.info(found.element, maxValueLength: valueLength)
            }
            return OptionalElementResult(element: info)
        } catch let error as RPCError where error.code == ErrorCode.elementGone {
            return OptionalElementResult(element: nil)
        }
    }
}
#endif
