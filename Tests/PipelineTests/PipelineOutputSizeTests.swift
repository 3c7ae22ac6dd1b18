import Pipeline
import Testing

/// The size of what the pipeline hands the sinks: every wakeup's outputs are copied through the loop's
/// buffer, so a case that grows `PipelineOutput` costs every edge.
@Suite struct PipelineOutputSizeTests {
    @Test func anOutputStays64BytesAndASource8() {
        #expect(MemoryLayout<OutputSource>.size == 8)
        #expect(MemoryLayout<PipelineOutput>.stride == 64)
    }
}
