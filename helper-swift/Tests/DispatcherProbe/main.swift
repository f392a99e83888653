import Foundation
import HelperCore

// A stand-in helper for test/swift/dispatcher.test.ts: HelperCore's real Dispatcher, framing and protocol types,
// with fixed answers, spawned by the TypeScript helper client as if it were the helper. Built on Linux only.

let dispatcher = Dispatcher()

dispatcher.on(SystemHello.self) { params in
    let ready = Capability(available: true, detail: "dispatcher probe")
    return HelloResult(
        protocolVersion: params.protocolVersion,
        helperVersion: "probe",
        platform: .linux,
        capabilities: Capabilities(accessibility: ready, display: ready, input: ready, screenCapture: ready)
    )
}

// Slow, so that a quicker request sent after it is answered first.
dispatcher.on(AppsList.self) { _ in
    try await Task.sleep(nanoseconds: 400_000_000)
    return AppsListResult(apps: [AppInfo(pid: 7, name: "Slow", id: "slow", active: false)])
}

dispatcher.on(ScreenDisplays.self) { _ in
    let bounds = Bounds(x: 0, y: 0, width: 1280, height: 800)
    return DisplaysResult(displays: [DisplayInfo(id: "1", bounds: bounds, scale: 1, primary: true)])
}

// Never answers by itself: only a cancellation ends it.
dispatcher.on(AXSnapshot.self) { _ in
    do {
        try await Task.sleep(nanoseconds: 600_000_000_000)
    } catch {
        log("ax.snapshot cancelled")
        throw error
    }
    throw RPCError(ErrorCode.failed, "the probe's snapshot was not cancelled")
}

// An answer of 10 MiB of text.
dispatcher.on(ClipboardRead.self) { _ in
    ClipboardReadResult(text: String(repeating: "0123456789abcdef", count: 10 * 65_536), types: ["text/plain"])
}

dispatcher.on(AXPerform.self) { params in PerformResult(performed: params.action) }

dispatcher.run()
log("the dispatcher stopped")
