#if canImport(ApplicationServices)
import AppKit
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// Where AX calls run. Each AX call is a synchronous round trip answered on the target app's main thread, so a
/// busy app blocks its caller up to the messaging timeout: every app gets its own serial queue, and a hung app
/// holds up only the requests that concern it. Element handles live here too, scoped by pid.
final class AppLanes: @unchecked Sendable {
    static let shared = AppLanes()

    /// The lane of calls on the system-wide element (hit testing, the focused element anywhere).
    static let systemWide: pid_t = 0

    let handles = HandleTable<AXUIElement>(
        equal: { CFEqual($0, $1) },
        hash: { Int(bitPattern: CFHash($0)) },
        pid: { AX.pid($0) }
    )

    private let lock = NSLock()
    private var queues: [pid_t: DispatchQueue] = [:]
    /// Apps whose Electron switch (AXManualAccessibility) is settled: on, or not theirs to turn on.
    private var settled: Set<pid_t> = []
    private var switchAttempts: [pid_t: Int] = [:]

    private init() {
        // Only the system-wide element sets the process-wide default: a timeout set on any other element covers
        // that one object, not the elements read through it (AXUIElement.h).
        AXUIElementSetMessagingTimeout(AXUIElementCreateSystemWide(), AX.messagingTimeout)
    }

    private func queue(_ pid: pid_t) -> DispatchQueue {
        lock.withLock {
            if let known = queues[pid] { return known }
            let created = DispatchQueue(label: "macpilot.ax.\(pid)")
            queues[pid] = created
            return created
        }
    }

    /// Runs `work` on the app's lane and answers its result.
    func run<T: Sendable>(_ pid: pid_t, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue(pid).async {
                if pid != AppLanes.systemWide { self.switchOnManualAccessibility(pid) }
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// Runs `work` on the lane of the element a handle names.
    func run<T: Sendable>(
        handle: String,
        _ work: @escaping @Sendable (AXUIElement) throws -> T
    ) async throws -> T {
        let element = try handles.element(for: handle)
        return try await run(AX.pid(element)) { try work(element) }
    }

    /// The app's root element, with its own messaging timeout.
    func application(_ pid: pid_t) -> AXUIElement {
        let app = AXUIElementCreateApplication(pid)
        AXUIElementSetMessagingTimeout(app, AX.messagingTimeout)
        return app
    }

    /// Electron apps build their tree only after AXManualAccessibility is set, and may report failure although it
    /// worked: read it back. An app that does not know the attribute is left alone, but for a Chrome-family
    /// browser, which gets VoiceOver's switch (AXEnhancedUserInterface: it costs Chrome some speed, and window
    /// managers' animations); one that did not answer (still starting) is asked again on its next use, and one
    /// whose answer is unclear a few times at most.
    private func switchOnManualAccessibility(_ pid: pid_t) {
        let done = lock.withLock { settled.contains(pid) || switchAttempts[pid, default: 0] >= 3 }
        if done { return }
        let app = application(pid)
        let code = AXUIElementSetAttributeValue(app, AXKey.manualAccessibility.name as CFString, kCFBooleanTrue)
        let on = (try? AX.read(app, AXKey.manualAccessibility)) == true
        if !on && code == .attributeUnsupported && AppLanes.isChromeFamily(pid) {
            _ = AXUIElementSetAttributeValue(
                app, AXKey.enhancedUserInterface.name as CFString, kCFBooleanTrue)
        }
        lock.withLock {
            if on || code == .attributeUnsupported {
                settled.insert(pid)
            } else if code != .cannotComplete && code != .invalidUIElement {
                switchAttempts[pid, default: 0] += 1
            }
        }
    }

    /// Chrome-family browsers, by bundle id: the apps whose tree waits for AXEnhancedUserInterface.
    private static let chromeFamily: Set<String> = [
        "com.google.Chrome", "com.google.Chrome.beta", "com.google.Chrome.canary", "org.chromium.Chromium",
        "com.brave.Browser", "com.microsoft.edgemac", "com.vivaldi.Vivaldi", "company.thebrowser.Browser",
    ]

    static func isChromeFamily(_ pid: pid_t) -> Bool {
        guard let id = NSRunningApplication(processIdentifier: pid)?.bundleIdentifier else { return false }
        return chromeFamily.contains(id)
    }

    /// Forgets an app that quit: its handles, its lane, its switch.
    func forget(_ pid: pid_t) {
        handles.forget(pid: pid)
        lock.withLock {
            queues[pid] = nil
            settled.remove(pid)
            switchAttempts[pid] = nil
        }
    }
}
#endif
