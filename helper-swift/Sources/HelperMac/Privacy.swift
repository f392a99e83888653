#if canImport(ApplicationServices)
import HelperCore

/// The privacy permissions input, capture and window management need, and the error that says where to grant one.
enum Privacy {
    case accessibility
    case screenRecording
    case inputMonitoring

    private var setting: String {
        switch self {
        case .accessibility:
            "System Settings > Privacy & Security > Accessibility"
        case .screenRecording:
            "System Settings > Privacy & Security > Screen & System Audio Recording (Screen Recording before macOS 15)"
        case .inputMonitoring:
            "System Settings > Privacy & Security > Input Monitoring"
        }
    }

    /// macOS reads a Screen Recording grant when a process starts.
    private var afterGrant: String {
        switch self {
        case .accessibility: "try again"
        case .screenRecording, .inputMonitoring: "restart macpilot"
        }
    }

    /// `what` needs this permission, which the helper does not have.
    func denied(_ what: String) -> RPCError {
        RPCError(
            ErrorCode.permissionDenied,
            "\(what) needs a permission macOS has not granted",
            hint: "turn on macpilot Helper (or, when it is not listed, the app that started macpilot) in "
                + "\(setting), then \(afterGrant)"
        )
    }
}
#endif
