#if canImport(ApplicationServices)
import CoreGraphics
import Foundation
import HelperCore
import ImageIO
import Vision

/// screen.recognizeText: Vision's text recognizer on a PNG the server sends, in accurate mode with language
/// correction. Lines come as Vision observes them; each word's box is Vision's box for its characters. Boxes go
/// out in image pixels with the origin at the top left (Vision's are normalized, origin at the bottom left).
enum TextRecognition {
    static func recognize(_ p: RecognizeTextParams) async throws -> RecognizeTextResult {
        guard let data = Data(base64Encoded: p.data),
              let source = CGImageSourceCreateWithData(data as CFData, nil),
              let image = CGImageSourceCreateImageAtIndex(source, 0, nil)
        else { throw RPCError(ErrorCode.invalidParams, "data is not a base64 PNG image") }
        let languages = p.languages ?? ["en-US"]
        // Vision works synchronously and for a while: off the dispatcher's thread.
        return try await Task.detached(priority: .userInitiated) {
            try read(image, languages: languages)
        }.value
    }

    private static func read(_ image: CGImage, languages: [String]) throws -> RecognizeTextResult {
        let request = VNRecognizeTextRequest()
        request.recognitionLevel = .accurate
        request.usesLanguageCorrection = true
        request.recognitionLanguages = languages
        do {
            try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
        } catch {
            throw RPCError(ErrorCode.failed, "Vision could not read the image: \(error.localizedDescription)", hint: "try again")
        }
        let size = CGSize(width: image.width, height: image.height)
        let observations: [VNRecognizedTextObservation] = request.results ?? []
        let lines = observations.compactMap { observation -> RecognizedLine? in
            guard let candidate = observation.topCandidates(1).first else { return nil }
            let confidence = Double(candidate.confidence)
            let words = candidate.string.split(separator: " ").compactMap { word -> RecognizedWord? in
                let box = (try? candidate.boundingBox(for: word.startIndex..<word.endIndex))?.boundingBox
                guard let box else { return nil }
                return RecognizedWord(text: String(word), bounds: pixels(box, in: size), confidence: confidence)
            }
            return RecognizedLine(
                text: candidate.string,
                bounds: pixels(observation.boundingBox, in: size),
                confidence: confidence,
                words: words
            )
        }
        return RecognizeTextResult(lines: lines)
    }

    /// A normalized, bottom-left-origin rectangle as image pixels with the origin at the top left.
    private static func pixels(_ rect: CGRect, in size: CGSize) -> Bounds {
        Bounds(
            x: Double(rect.minX * size.width),
            y: Double((1 - rect.maxY) * size.height),
            width: Double(rect.width * size.width),
            height: Double(rect.height * size.height)
        )
    }
}
#endif
