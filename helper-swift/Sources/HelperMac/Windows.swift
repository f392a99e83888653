#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import AppKit
import HelperCore

/// windows.*: the window server's list (ids, owners, frames, stacking) completed by what only the app knows
/// (minimized, focused, and the title when Screen Recording is not granted), and every operation through the
/// app's AX window, on the app's lane. Each operation waits (bounded) until the window shows its effect, then
/// answers a fresh read.
enum Windows {
    /// Apps apply a request within a few ms; animations (minimizing) and busy apps take longer.
    private static let applyWaitSeconds = 2.0
    private static let pollMilliseconds = 50.0

    /// Without AX (no permission, or an app that does not answer), windows off screen cannot be told minimized
    /// from hidden or on another Space, so they are left out; those on screen are listed all the same.
    static func list(_ p: WindowsListParams) async -> WindowsListResult {
        let server = ServerWindow.list(offScreenToo: p.includeMinimized).filter { p.pid == nil || $0.pid == p.pid }
        var facts: [pid_t: AppWindowFacts] = [:]
        await withTaskGroup(of: (pid_t, AppWindowFacts?).self) { group in
            for (pid, windows) in Dictionary(grouping: server, by: \.pid) {
                group.addTask { (pid, try? await readFacts(pid, windows)) }
            }
            for await (pid, found) in group {
                facts[pid] = found
            }
        }
        let focused = focusedID(server, facts)
        return WindowsListResult(windows: server.compactMap { window in
            let info = describe(window, facts[window.pid], focused: focused)
            return window.onScreen || info.minimized ? info : nil
        })
    }

    static func focus(_ p: WindowIDParams) async throws -> WindowResult {
        try await raise(p.id)
    }

    static func restore(_ p: WindowIDParams) async throws -> WindowResult {
        try await raise(p.id)
    }

    static func move(_ p: WindowMoveParams) async throws -> WindowResult {
        let x = p.to.x.rounded()
        let y = p.to.y.rounded()
        return try await operate(p.id, until: { $0.bounds.x == x && $0.bounds.y == y }) { _, element in
            var origin = CGPoint(x: x, y: y)
            try AX.set(element, AXKey.position, try axValue(AXValueCreate(.cgPoint, &origin)))
        }
    }

    static func resize(_ p: WindowResizeParams) async throws -> WindowResult {
        let width = Double(p.width)
        let height = Double(p.height)
        return try await operate(p.id, until: { $0.bounds.width == width && $0.bounds.height == height }) { _, element in
            var size = CGSize(width: width, height: height)
            try AX.set(element, AXKey.size, try axValue(AXValueCreate(.cgSize, &size)))
        }
    }

    static func minimize(_ p: WindowIDParams) async throws -> WindowResult {
        try await operate(p.id, until: \.minimized) { _, element in
            try AX.set(element, AXKey.minimized, kCFBooleanTrue)
        }
    }

    /// Presses the close button, as a person would: the app may ask to save first, and then the window stays.
    static func close(_ p: WindowIDParams) async throws -> WindowCloseResult {
        let window = try serverWindow(p.id)
        try await AppLanes.shared.run(window.pid) {
            guard let button = try AX.read(try element(of: window), AXKey.closeButton) else {
                throw RPCError(
                    ErrorCode.actionFailed,
                    "the window \(p.id) has no close button",
                    hint: "use the app's own close control, or quit the app"
                )
            }
            try AX.perform(button, kAXPressAction)
        }
        return WindowCloseResult(closed: try await poll({ ServerWindow.one(window.id) == nil }, until: { $0 }))
    }

    // MARK: - Operations

    /// Un-minimizes the window if need be, raises it within its app, makes it the app's main window and brings
    /// the app to the front (which macOS may refuse: the answer says whether the window ended up focused).
    private static func raise(_ id: String) async throws -> WindowResult {
        try await operate(id, until: { !$0.minimized && $0.focused }) { window, element in
            if try AX.read(element, AXKey.minimized) == true {
                try AX.set(element, AXKey.minimized, kCFBooleanFalse)
            }
            try AX.set(element, AXKey.main, kCFBooleanTrue)
            try AX.perform(element, kAXRaiseAction)
            Apps.bringToFront(window.pid)
        }
    }

    /// Runs `change` on the window's AX window, on its app's lane, then answers the window once `applied` holds
    /// of it or the wait is over.
    private static func operate(
        _ id: String,
        until applied: (WindowInfo) -> Bool,
        _ change: @escaping @Sendable (ServerWindow, AXUIElement) throws -> Void
    ) async throws -> WindowResult {
        let window = try serverWindow(id)
        try await AppLanes.shared.run(window.pid) { try change(window, try element(of: window)) }
        return WindowResult(window: try await poll({ try await fresh(window.id) }, until: applied))
    }

    private static func serverWindow(_ id: String) throws -> ServerWindow {
        guard let number = CGWindowID(id), number != 0 else {
            throw RPCError(
                ErrorCode.invalidParams,
                "\"\(id)\" is not a window id",
                hint: "window ids are decimal numbers, as windows.list gives them"
            )
        }
        guard let window = ServerWindow.one(number) else { throw gone(id) }
        return window
    }

    /// The window's AX window; call on the app's lane.
    private static func element(of window: ServerWindow) throws -> AXUIElement {
        guard let element = try AppWindows.read(window.pid, serverWindows: [window]).byID[window.id] else {
            throw RPCError(
                ErrorCode.notAvailable,
                "the app does not show the window \(window.id) to accessibility",
                hint: "it may be on another Space (switch to it first), or its app may lack accessibility support"
            )
        }
        return element
    }

    private static func axValue(_ value: AXValue?) throws -> AXValue {
        guard let value else { throw RPCError(ErrorCode.failed, "the system did not build the AX value") }
        return value
    }

    private static func readFacts(_ pid: pid_t, _ windows: [ServerWindow]) async throws -> AppWindowFacts {
        try await AppLanes.shared.run(pid) { try AppWindows.read(pid, serverWindows: windows).facts() }
    }

    private static func fresh(_ id: CGWindowID) async throws -> WindowInfo {
        guard let window = ServerWindow.one(id) else { throw gone(String(id)) }
        let facts = try? await readFacts(window.pid, [window])
        return describe(window, facts, focused: focusedID([window], facts.map { [window.pid: $0] } ?? [:]))
    }

    /// Reads until `done` holds of the value read or the wait is over; the last value read.
    private static func poll<T>(_ read: () async throws -> T, until done: (T) -> Bool) async throws -> T {
        let deadline = Date().addingTimeInterval(applyWaitSeconds)
        var value = try await read()
        while !done(value), Date() < deadline {
            try await pause(milliseconds: pollMilliseconds)
            value = try await read()
        }
        return value
    }

    private static func gone(_ id: String) -> RPCError {
        RPCError(
            ErrorCode.elementGone,
            "no window has the id \(id)",
            hint: "the window closed, or the id is not a top-level window; list the windows for current ids"
        )
    }

    // MARK: - Describing

    private static func describe(_ window: ServerWindow, _ facts: AppWindowFacts?, focused: CGWindowID?) -> WindowInfo {
        WindowInfo(
            id: String(window.id),
            pid: window.pid,
            app: window.owner,
            title: window.title ?? facts?.titles[window.id] ?? "",
            bounds: Bounds(window.frame),
            minimized: !window.onScreen && facts?.minimized.contains(window.id) == true,
            focused: window.id == focused
        )
    }

    /// The frontmost app's focused window; when its AX cannot say, that app's frontmost window on screen.
    private static func focusedID(_ windows: [ServerWindow], _ facts: [pid_t: AppWindowFacts]) -> CGWindowID? {
        guard let front = NSWorkspace.shared.frontmostApplication?.processIdentifier else { return nil }
        if let app = facts[front] { return app.focusedID }
        return windows.first { $0.pid == front && $0.onScreen }?.id
    }
}
#endif
