#if canImport(ApplicationServices)
import AppKit
@preconcurrency import ApplicationServices
import HelperCore

/// observe.start and the `observe.changed` notification: an AXObserver per app on the main run loop (apps started
/// later included), each app's events folded into at most one notification per 10 ms that names their kinds
/// ("ax:valuechanged") and counts them, never their content.
final class ChangeObserver: @unchecked Sendable {
    static let shared = ChangeObserver()

    private static let notifications = [
        "AXFocusedUIElementChanged", "AXFocusedWindowChanged", "AXWindowCreated", "AXWindowMoved",
        "AXWindowResized", "AXWindowMiniaturized", "AXUIElementDestroyed", "AXValueChanged", "AXTitleChanged",
        "AXSelectedTextChanged", "AXSheetCreated", "AXMenuOpened", "AXApplicationActivated", "AXLayoutChanged",
    ]
    private static let foldInterval = DispatchTimeInterval.milliseconds(10)

    private struct Batch {
        var kinds: Set<String> = []
        var count = 0
    }

    private let lock = NSLock()
    /// Set by observe.start; nil until then.
    private var dispatcher: Dispatcher?
    private var observers: [pid_t: AXObserver] = [:]
    /// Main thread only: events not sent yet (a flush is scheduled for each pid here), and when each app's last
    /// notification went out.
    private var pending: [pid_t: Batch] = [:]
    private var lastSent: [pid_t: DispatchTime] = [:]

    private init() {}

    func start(_ dispatcher: Dispatcher) {
        let first = lock.withLock { () -> Bool in
            defer { self.dispatcher = dispatcher }
            return self.dispatcher == nil
        }
        guard first else { return }
        for app in Apps.running() { attach(app.processIdentifier) }
    }

    /// Observes an app, once observe.start has been called; registering talks to the app, so it happens on the
    /// app's lane.
    func attach(_ pid: pid_t) {
        guard lock.withLock({ dispatcher != nil && observers[pid] == nil }) else { return }
        Task { try await AppLanes.shared.run(pid) { self.register(pid) } }
    }

    private func register(_ pid: pid_t) {
        var created: AXObserver?
        guard AXObserverCreate(pid, changeCallback, &created) == .success, let observer = created else { return }
        let app = AppLanes.shared.application(pid)
        // The pid rides in refcon, so the callback needs no object kept alive for it.
        let refcon = UnsafeMutableRawPointer(bitPattern: Int(pid))
        var added = 0
        for name in Self.notifications {
            let code = AXObserverAddNotification(observer, app, name as CFString, refcon)
            if code == .success || code == .notificationAlreadyRegistered { added += 1 }
            // A hung app would cost the messaging timeout for each name.
            if code == .cannotComplete { return }
        }
        guard added > 0 else { return }
        let kept = lock.withLock { () -> Bool in
            guard observers[pid] == nil else { return false }
            observers[pid] = observer
            return true
        }
        if kept { CFRunLoopAddSource(CFRunLoopGetMain(), AXObserverGetRunLoopSource(observer), .defaultMode) }
    }

    /// Stops observing an app that quit. Main thread.
    func detach(_ pid: pid_t) {
        pending[pid] = nil
        lastSent[pid] = nil
        guard let observer = lock.withLock({ observers.removeValue(forKey: pid) }) else { return }
        CFRunLoopRemoveSource(CFRunLoopGetMain(), AXObserverGetRunLoopSource(observer), .defaultMode)
    }

    /// One AX notification. Main thread (the observers' run loop sources are on the main run loop).
    fileprivate func record(_ pid: pid_t, _ notification: String) {
        if pending[pid] == nil {
            pending[pid] = Batch()
            let due = lastSent[pid].map { $0 + Self.foldInterval } ?? .now()
            DispatchQueue.main.asyncAfter(deadline: max(due, .now())) { self.flush(pid) }
        }
        pending[pid]?.kinds.insert("ax:" + notification.dropFirst(2).lowercased())
        pending[pid]?.count += 1
    }

    private func flush(_ pid: pid_t) {
        guard let batch = pending.removeValue(forKey: pid), let sink = lock.withLock({ self.dispatcher }) else {
            return
        }
        lastSent[pid] = .now()
        sink.notify(
            ObserveChanged.self,
            ObserveChangedParams(pid: pid, kinds: batch.kinds.sorted(), count: batch.count)
        )
    }
}

private let changeCallback: AXObserverCallback = { _, _, notification, refcon in
    ChangeObserver.shared.record(pid_t(truncatingIfNeeded: Int(bitPattern: refcon)), notification as String)
}
#endif
