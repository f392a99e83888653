#if canImport(ApplicationServices)
import AppKit
@preconcurrency import ApplicationServices
import HelperCore

/// apps.*: running apps through NSWorkspace, launching installed ones, bringing them forward, quitting them.
enum Apps {
    private static let pollMilliseconds = 50.0
    private static let activateSeconds = 1.5
    /// Where installed apps are looked up by name, in this order.
    private static let folders = [
        "/Applications", "/Applications/Utilities", "/System/Applications", "/System/Applications/Utilities",
        NSString(string: "~/Applications").expandingTildeInPath, "/System/Library/CoreServices",
    ]

    /// Apps a person can see (in the Dock or the menu bar): no daemons, and not this helper.
    static func running() -> [NSRunningApplication] {
        let me = ProcessInfo.processInfo.processIdentifier
        return NSWorkspace.shared.runningApplications.filter {
            $0.processIdentifier != me && !$0.isTerminated && $0.activationPolicy != .prohibited
        }
    }

    private static func info(_ app: NSRunningApplication) -> AppInfo {
        let pid = app.processIdentifier
        return AppInfo(
            pid: pid,
            name: app.localizedName ?? app.bundleIdentifier ?? "pid \(pid)",
            bundleId: app.bundleIdentifier,
            id: AppLanes.shared.handles.handle(for: AppLanes.shared.application(pid)),
            active: app.isActive
        )
    }

    private static func runningApp(_ pid: pid_t) throws -> NSRunningApplication {
        guard let app = NSRunningApplication(processIdentifier: pid), !app.isTerminated else {
            throw RPCError(
                ErrorCode.appNotFound,
                "no running app has pid \(pid)",
                hint: "call list_apps for the pids of running apps"
            )
        }
        return app
    }

    static func isActive(_ pid: pid_t) -> Bool {
        NSRunningApplication(processIdentifier: pid)?.isActive == true
    }

    static func list() -> AppsListResult {
        AppsListResult(apps: running().map(info))
    }

    /// A running app that `name` names: its name, its bundle id, or the path of its .app.
    private static func matches(_ app: NSRunningApplication, _ name: String) -> Bool {
        let same = { (other: String?) in other?.caseInsensitiveCompare(name) == .orderedSame }
        return same(app.localizedName) || same(app.bundleIdentifier) || same(app.bundleURL?.path)
    }

    /// The installed app that `name` names: a path to an .app, a bundle id, or an app's file name in the usual
    /// folders ("TextEdit" finds TextEdit.app).
    private static func installedApp(_ name: String) -> URL? {
        let files = FileManager.default
        if name.hasPrefix("/") || name.hasPrefix("~") {
            let path = NSString(string: name).expandingTildeInPath
            return path.hasSuffix(".app") && files.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        if let url = NSWorkspace.shared.urlForApplication(withBundleIdentifier: name) { return url }
        let file = name.lowercased().hasSuffix(".app") ? name : name + ".app"
        for folder in folders {
            let entries = (try? files.contentsOfDirectory(atPath: folder)) ?? []
            if let hit = entries.first(where: { $0.caseInsensitiveCompare(file) == .orderedSame }) {
                return URL(fileURLWithPath: folder).appendingPathComponent(hit)
            }
        }
        return nil
    }

    static func launch(_ params: LaunchParams) async throws -> LaunchResult {
        if let app = running().first(where: { matches($0, params.name) }) {
            return LaunchResult(app: info(app), alreadyRunning: true)
        }
        guard let url = installedApp(params.name) else {
            throw RPCError(
                ErrorCode.appNotFound,
                "no installed app matches \"\(params.name)\"",
                hint: "use the app's file name as Finder shows it (TextEdit), its bundle id (com.apple.TextEdit) "
                    + "or the path of its .app"
            )
        }
        if let bundleId = Bundle(url: url)?.bundleIdentifier,
           let app = running().first(where: { $0.bundleIdentifier == bundleId }) {
            return LaunchResult(app: info(app), alreadyRunning: true)
        }
        let seconds = Double(params.timeoutMs) / 1000
        let deadline = Date().addingTimeInterval(seconds)
        let late = RPCError(
            ErrorCode.timeout,
            "\(url.lastPathComponent) did not start within \(params.timeoutMs) ms",
            hint: "macOS may be asking the user something about it; look at the screen, or launch again with a "
                + "longer timeout"
        )
        let pid = try await withDeadline(seconds: seconds, late) {
            let configuration = NSWorkspace.OpenConfiguration()
            configuration.activates = true
            return try await NSWorkspace.shared.openApplication(at: url, configuration: configuration).processIdentifier
        }
        while Date() < deadline {
            let ready = try await answers(pid)
            if ready { return LaunchResult(app: info(try runningApp(pid)), alreadyRunning: false) }
            try await pause(milliseconds: pollMilliseconds)
        }
        throw RPCError(
            ErrorCode.timeout,
            "\(url.lastPathComponent) started (pid \(pid)) but did not answer accessibility calls within "
                + "\(params.timeoutMs) ms",
            hint: "wait and call list_apps, or launch again with a longer timeout"
        )
    }

    /// Whether the app answers AX calls yet; only a missing permission is worth an error here.
    private static func answers(_ pid: pid_t) async throws -> Bool {
        try await AppLanes.shared.run(pid) {
            do {
                return try AX.read(AppLanes.shared.application(pid), AXKey.role) != nil
            } catch let error as RPCError where error.code != ErrorCode.permissionDenied {
                return false
            }
        }
    }

    static func activate(_ params: ActivateParams) async throws -> ActivateResult {
        let app = try runningApp(params.pid)
        try await AppLanes.shared.run(params.pid) { bringToFront(params.pid) }
        let deadline = Date().addingTimeInterval(activateSeconds)
        while !app.isActive && Date() < deadline {
            try await pause(milliseconds: pollMilliseconds)
        }
        return ActivateResult(activated: app.isActive)
    }

    /// Asks for the app to come to the front twice over: macOS 14's cooperative activation may refuse a request
    /// from a process with no UI of its own, while AXFrontmost is a request to the app itself. Call on its lane.
    static func bringToFront(_ pid: pid_t) {
        _ = NSRunningApplication(processIdentifier: pid)?.activate(options: [.activateAllWindows])
        _ = AXUIElementSetAttributeValue(
            AppLanes.shared.application(pid),
            AXKey.frontmost.name as CFString,
            kCFBooleanTrue
        )
    }

    static func quit(_ params: QuitParams) async throws -> QuitResult {
        let app = try runningApp(params.pid)
        let asked = params.force ? app.forceTerminate() : app.terminate()
        guard asked else { return QuitResult(exited: app.isTerminated) }
        let deadline = Date().addingTimeInterval(Double(params.timeoutMs) / 1000)
        while !app.isTerminated && Date() < deadline {
            try await pause(milliseconds: pollMilliseconds)
        }
        return QuitResult(exited: app.isTerminated)
    }
}
#endif
