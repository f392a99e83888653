#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// One app's AX windows keyed by their window server ids, and the one it has focused. Read on the app's lane
/// (AppLanes): every call here is a round trip to the app.
///
/// Matching an AX window to a window server id: `_AXUIElementGetWindow` answers it exactly. It is private (in
/// HIServices since Mac OS X 10.x, used by AltTab, Rectangle, Hammerspoon and yabai), so it is looked up by name
/// at run time and the helper still starts if it is ever gone. Without it, an AX window matches the app's server
/// window with the same frame (whole points) and, when both are known, the same title; two windows alike in both
/// are told apart by nothing, and the first is taken.
struct AppWindows {
    let byID: [CGWindowID: AXUIElement]
    let focusedID: CGWindowID?

    /// The AX windows of the app that owns `serverWindows` (all of one pid). AX lists only the windows of the
    /// current Space.
    static func read(_ pid: pid_t, serverWindows: [ServerWindow]) throws -> AppWindows {
        guard AXIsProcessTrusted() else { throw Privacy.accessibility.denied("managing windows") }
        let values = try AX.attributes(
            AppLanes.shared.application(pid),
            [AXKey.windows.name, AXKey.focusedWindow.name]
        )
        let windows = values[AXKey.windows] ?? []
        let matched = try windows.compactMap { window in
            try serverID(of: window, among: serverWindows).map { ($0, window) }
        }
        let focused = try values[AXKey.focusedWindow].flatMap {
            try serverID(of: $0, among: serverWindows)
        }
        return AppWindows(byID: Dictionary(matched, uniquingKeysWith: { first, _ in first }), focusedID: focused)
    }

    /// What AX says of the windows, in values that may leave the lane.
    func facts() throws -> AppWindowFacts {
        var facts = AppWindowFacts(minimized: [], titles: [:], focusedID: focusedID)
        for (id, window) in byID {
            let values = try AX.attributes(window, [AXKey.minimized.name, AXKey.title.name])
            if values[AXKey.minimized] == true { facts.minimized.insert(id) }
            facts.titles[id] = values[AXKey.title]
        }
        return facts
    }

    private typealias GetWindow = @convention(c) (AXUIElement, UnsafeMutablePointer<CGWindowID>) -> AXError

    /// RTLD_DEFAULT: every image loaded in the process.
    private static let getWindow: GetWindow? = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "_AXUIElementGetWindow")
        .map { unsafeBitCast($0, to: GetWindow.self) }

    private static func serverID(of window: AXUIElement, among candidates: [ServerWindow]) throws -> CGWindowID? {
        if let getWindow {
            var id: CGWindowID = 0
            return getWindow(window, &id) == .success && id != 0 ? id : nil
        }
        let values = try AX.attributes(window, [AXKey.position.name, AXKey.size.name, AXKey.title.name])
        guard let bounds = AX.bounds(values) else {
            return nil
        }
        let frame = CGRect(bounds).integral
        let title = values[AXKey.title]
        return candidates.first { candidate in
            candidate.frame.integral == frame && (candidate.title == nil || title == nil || candidate.title == title)
        }?.id
    }
}

/// What an app's AX says of its windows: which are minimized, their titles, which one has focus.
struct AppWindowFacts: Sendable {
    var minimized: Set<CGWindowID>
    var titles: [CGWindowID: String]
    var focusedID: CGWindowID?
}
#endif
