import EventOutput
import InputModel

/// An encoder that starts from the position the state directory kept (`restore: true`), as the
/// printer shows it at the start:
///
/// - JSON: `{"event":"position","position":P,"time_ns":T,"restored":true,"encoder":"volume",…}`;
/// - text: `position P time=SECONDS (restored) encoder=volume …`.
extension EncoderPresenter {
    package func printedRestoredStart(atNs nowNs: Int64, format: EventFormat) -> [UInt8]? {
        guard let startPosition else { return nil }
        switch format {
        case .json:
            return Array(#"{"event":"position","position":\#(startPosition),"time_ns":\#(nowNs),"restored":true"#.utf8) + eventFields.json + [UInt8(ascii: "}")]
        case .text:
            return Array("position \(startPosition) time=\(EventWriter.seconds(nowNs)) (restored)".utf8) + eventFields.text
        }
    }
}
