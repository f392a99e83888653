#if canImport(ApplicationServices)
import AppKit
import HelperCore
@preconcurrency import ScreenCaptureKit

/// screen.*: displays from CoreGraphics (live, no permission needed) and captures through ScreenCaptureKit, one at
/// a time and each bounded, as the framework can stall when called concurrently or while a permission prompt
/// is up.
enum Screen {
    private static let captureQueue = SerialQueue()
    private static let captureSeconds = 10.0

    static func displays() async throws -> DisplaysResult {
        let names = await displayNames()
        let primary = CGMainDisplayID()
        let displays = try activeDisplays().map { id in
            DisplayInfo(
                id: String(id),
                bounds: Bounds(CGDisplayBounds(id)),
                scale: scale(of: id),
                primary: id == primary,
                name: names[id]
            )
        }
        return DisplaysResult(displays: displays)
    }

    static func capture(_ p: CaptureParams) async throws -> CaptureResult {
        guard CGPreflightScreenCaptureAccess() else { throw Privacy.screenRecording.denied("a screenshot") }
        let timeout = RPCError(
            ErrorCode.timeout,
            "the screenshot took longer than \(Int(captureSeconds)) s",
            hint: "try again; if it keeps happening, restart macpilot"
        )
        return try await captureQueue.run {
            try await withDeadline(seconds: captureSeconds, timeout) { try await shoot(p) }
        }
    }

    // MARK: - Displays

    private static func activeDisplays() throws -> [CGDirectDisplayID] {
        var count: UInt32 = 0
        guard CGGetActiveDisplayList(0, nil, &count) == .success else { throw noDisplays }
        var ids = [CGDirectDisplayID](repeating: 0, count: Int(count))
        guard CGGetActiveDisplayList(count, &ids, &count) == .success else { throw noDisplays }
        return Array(ids.prefix(Int(count)))
    }

    private static let noDisplays = RPCError(
        ErrorCode.notAvailable,
        "the window server lists no displays",
        hint: "run macpilot in a logged-in desktop session"
    )

    /// Pixels per point of the display's current mode: its backing scale factor, read from CoreGraphics like the
    /// display list and bounds, so that all three describe the same moment.
    private static func scale(of id: CGDirectDisplayID) -> Double {
        guard let mode = CGDisplayCopyDisplayMode(id), mode.width > 0 else { return 1 }
        return Double(mode.pixelWidth) / Double(mode.width)
    }

    /// Display names ("Built-in Retina Display") by display id.
    @MainActor private static func displayNames() -> [CGDirectDisplayID: String] {
        var names: [CGDirectDisplayID: String] = [:]
        for screen in NSScreen.screens {
            if let number = screen.deviceDescription[NSDeviceDescriptionKey("NSScreenNumber")] as? NSNumber {
                names[number.uint32Value] = screen.localizedName
            }
        }
        return names
    }

    // MARK: - Capture

    private static func shoot(_ p: CaptureParams) async throws -> CaptureResult {
        let content: SCShareableContent
        do {
            content = try await SCShareableContent.excludingDesktopWindows(false, onScreenWindowsOnly: true)
        } catch {
            throw failure(error)
        }
        let shot = try Shot(p.target, content)
        let configuration = SCStreamConfiguration()
        // In pixels: the default is 1920x1080 whatever the content.
        configuration.width = max(1, Int((shot.bounds.width * shot.scale).rounded()))
        configuration.height = max(1, Int((shot.bounds.height * shot.scale).rounded()))
        configuration.showsCursor = false
        configuration.ignoreShadowsSingleWindow = true
        if let sourceRect = shot.sourceRect { configuration.sourceRect = sourceRect }
        let image: CGImage
        do {
            image = try await SCScreenshotManager.captureImage(contentFilter: shot.filter, configuration: configuration)
        } catch {
            throw failure(error)
        }
        let encoded = try EncodedImage.of(image, format: p.format, quality: p.quality, maxLongEdge: p.maxLongEdge)
        return CaptureResult(
            data: encoded.data.base64EncodedString(),
            format: p.format,
            width: encoded.width,
            height: encoded.height,
            bounds: Bounds(shot.bounds),
            scale: Double(encoded.width) / Double(shot.bounds.width)
        )
    }

    private static func failure(_ error: Error) -> RPCError {
        let nsError = error as NSError
        if nsError.domain == SCStreamErrorDomain && nsError.code == SCStreamError.userDeclined.rawValue {
            return Privacy.screenRecording.denied("a screenshot")
        }
        return RPCError(ErrorCode.failed, "ScreenCaptureKit failed: \(nsError.localizedDescription)", hint: "try again")
    }
}

/// What one capture covers: the filter, the part of its display to keep (display-local points, for a region),
/// where that is on screen (global points) and the filter's pixels per point.
private struct Shot {
    let filter: SCContentFilter
    let sourceRect: CGRect?
    let bounds: CGRect
    let scale: Double

    init(_ target: CaptureTarget, _ content: SCShareableContent) throws {
        switch target {
        case .display(let id):
            guard let display = content.displays.first(where: { String($0.displayID) == id }) else {
                throw RPCError(
                    ErrorCode.invalidParams,
                    "no display \(id)",
                    hint: "the displays are: \(content.displays.map { String($0.displayID) }.joined(separator: ", "))"
                )
            }
            filter = SCContentFilter(display: display, excludingWindows: [])
            sourceRect = nil
            bounds = display.frame
        case .window(let id):
            guard let window = content.windows.first(where: { String($0.windowID) == id }) else {
                throw RPCError(
                    ErrorCode.notAvailable,
                    "the window \(id) is not on screen",
                    hint: "it may have closed, be minimized or be on another Space; list the windows, restore or focus it"
                )
            }
            filter = SCContentFilter(desktopIndependentWindow: window)
            sourceRect = nil
            bounds = window.frame
        case .region(let region):
            // The display that shows most of the region; the part off that display is left out.
            let wanted = CGRect(region)
            let overlaps = content.displays.map { ($0, $0.frame.intersection(wanted)) }.filter { !$0.1.isEmpty }
            guard let best = overlaps.max(by: { area($0.1) < area($1.1) }) else {
                throw RPCError(
                    ErrorCode.invalidParams,
                    "the area \(region.width)x\(region.height) at \(region.x),\(region.y) is off every display",
                    hint: "screen.displays gives the displays' bounds"
                )
            }
            let (display, clip) = best
            filter = SCContentFilter(display: display, excludingWindows: [])
            sourceRect = clip.offsetBy(dx: -display.frame.minX, dy: -display.frame.minY)
            bounds = clip
        }
        scale = Double(filter.pointPixelScale)
    }
}

private func area(_ rect: CGRect) -> CGFloat {
    rect.width * rect.height
}
#endif
