#if canImport(ApplicationServices)
import AppKit
import HelperCore

/// Follows apps starting and quitting: a quitting app's handles and lane are forgotten and its observer dropped;
/// a starting one is observed once observe.start has been called. Notifications arrive on the main thread.
enum AppLifecycle {
    static func watch() {
        let center = NSWorkspace.shared.notificationCenter
        _ = center.addObserver(forName: NSWorkspace.didTerminateApplicationNotification, object: nil, queue: .main) {
            guard let pid = processID($0) else { return }
            AppLanes.shared.forget(pid)
            ChangeObserver.shared.detach(pid)
        }
        _ = center.addObserver(forName: NSWorkspace.didLaunchApplicationNotification, object: nil, queue: .main) {
            guard let pid = processID($0) else { return }
            ChangeObserver.shared.attach(pid)
        }
    }

    private static func processID(_ notification: Notification) -> pid_t? {
        (notification.userInfo?[NSWorkspace.applicationUserInfoKey] as? NSRunningApplication)?.processIdentifier
    }
}
#endif
