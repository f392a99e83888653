#if canImport(ApplicationServices)
import CoreGraphics
import Foundation
import HelperCore
import ImageIO
import UniformTypeIdentifiers

/// A captured image scaled down to fit a long edge and encoded as PNG or JPEG.
struct EncodedImage {
    let data: Data
    let width: Int
    let height: Int

    static func of(_ image: CGImage, format: ImageFormat, quality: Int, maxLongEdge: Int) throws -> EncodedImage {
        let fitted = try fit(image, maxLongEdge: maxLongEdge)
        let data = NSMutableData()
        let type = format == .png ? UTType.png : UTType.jpeg
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, type.identifier as CFString, 1, nil)
        else { throw encodingFailed(format) }
        let options = [kCGImageDestinationLossyCompressionQuality: Double(quality) / 100] as CFDictionary
        CGImageDestinationAddImage(destination, fitted, format == .jpeg ? options : nil)
        guard CGImageDestinationFinalize(destination) else { throw encodingFailed(format) }
        return EncodedImage(data: data as Data, width: fitted.width, height: fitted.height)
    }

    /// The image itself when its long edge fits, else a copy drawn at the largest size that fits.
    private static func fit(_ image: CGImage, maxLongEdge: Int) throws -> CGImage {
        let longEdge = max(image.width, image.height)
        guard longEdge > maxLongEdge else { return image }
        let factor = Double(maxLongEdge) / Double(longEdge)
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        let failure = RPCError(ErrorCode.failed, "cannot scale the image to \(width)x\(height)", hint: "try a larger maxLongEdge")
        guard let context = CGContext(
            data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
        ) else { throw failure }
        context.interpolationQuality = .high
        context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
        guard let scaled = context.makeImage() else { throw failure }
        return scaled
    }

    private static func encodingFailed(_ format: ImageFormat) -> RPCError {
        RPCError(ErrorCode.failed, "cannot encode the image as \(format.rawValue)", hint: "try the other format")
    }
}
#endif
