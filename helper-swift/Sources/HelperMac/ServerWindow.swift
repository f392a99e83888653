#if canImport(ApplicationServices)
import CoreGraphics
import Foundation

/// A top-level app window as the window server lists it: ids, owners, frames and stacking order come without any
/// permission; titles only with Screen Recording (nil without it).
struct ServerWindow: Sendable {
    let id: CGWindowID
    let pid: pid_t
    let owner: String
    let title: String?
    /// Global points, frame included.
    let frame: CGRect
    let onScreen: Bool

    /// Layer 0 holds app windows; menus, the Dock, the menu bar and overlays sit on other layers.
    private init?(_ info: [String: Any]) {
        guard
            (info[kCGWindowLayer as String] as? Int) == 0,
            let id = info[kCGWindowNumber as String] as? CGWindowID,
            let pid = info[kCGWindowOwnerPID as String] as? pid_t,
            let bounds = info[kCGWindowBounds as String] as? NSDictionary,
            let frame = CGRect(dictionaryRepresentation: bounds as CFDictionary),
            !frame.isEmpty
        else { return nil }
        self.id = id
        self.pid = pid
        owner = info[kCGWindowOwnerName as String] as? String ?? ""
        title = info[kCGWindowName as String] as? String
        self.frame = frame
        onScreen = info[kCGWindowIsOnscreen as String] as? Bool ?? false
    }

    /// App windows front to back: those on screen (in the current Space), or every one the window server knows
    /// (minimized ones, those of hidden apps and of other Spaces too) when `offScreenToo`.
    static func list(offScreenToo: Bool) -> [ServerWindow] {
        let options: CGWindowListOption = offScreenToo ? [.optionAll, .excludeDesktopElements] : [.optionOnScreenOnly, .excludeDesktopElements]
        return rows(CGWindowListCopyWindowInfo(options, kCGNullWindowID)).compactMap(ServerWindow.init)
    }

    /// One window by id, on screen or not; nil once it has closed.
    static func one(_ id: CGWindowID) -> ServerWindow? {
        rows(CGWindowListCopyWindowInfo(.optionIncludingWindow, id)).compactMap(ServerWindow.init).first { $0.id == id }
    }

    private static func rows(_ list: CFArray?) -> [[String: Any]] {
        list as? [[String: Any]] ?? []
    }
}
#endif
