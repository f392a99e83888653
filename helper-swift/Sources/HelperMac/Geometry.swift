#if canImport(ApplicationServices)
import CoreGraphics
import HelperCore

extension Bounds {
    /// A rectangle in the global space CoreGraphics, AX and ScreenCaptureKit share: points, origin at the top left
    /// of the primary display.
    init(_ rect: CGRect) {
        self.init(x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
    }
}

extension CGRect {
    init(_ bounds: Bounds) {
        self.init(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height)
    }
}
#endif
