#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// system.hello: versions, and each capability with what to do when a permission is missing. It only asks macOS
/// whether permissions are granted: prompting is for an explicit request.
enum Hello {
    /// The version outside a bundle (swift run, tests); the built .app's Info.plist carries the release's.
    private static let unbundledVersion = "dev"

    static func hello() -> HelloResult {
        let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
        return HelloResult(
            protocolVersion: PROTOCOL_VERSION,
            helperVersion: version ?? unbundledVersion,
            platform: .darwin,
            capabilities: Capabilities(
                accessibility: permission(AXIsProcessTrusted(), .accessibility, "reading and operating apps"),
                display: Capability(available: true, detail: "macOS window server, main display \(CGMainDisplayID())"),
                input: permission(CGPreflightPostEventAccess(), .accessibility, "synthetic mouse and keyboard input"),
                screenCapture: permission(CGPreflightScreenCaptureAccess(), .screenRecording, "screenshots"),
                recording: permission(
                    CGPreflightListenEventAccess(), .inputMonitoring, "recording what a person types and clicks"
                )
            )
        )
    }

    private static func permission(_ granted: Bool, _ privacy: Privacy, _ what: String) -> Capability {
        if granted { return Capability(available: true, detail: "\(what): permission granted") }
        let fix = privacy.denied(what).hint ?? ""
        return Capability(available: false, detail: "\(what): permission not granted; \(fix); `macpilot doctor` checks it")
    }
}
#endif
