import StayData
import Testing

/// When a saved index is copied into huge pages rather than mapped.
@Suite struct MappedFileTests {
    /// The machine's available memory is read (a failed read would refuse every copy): a megabyte fits;
    /// sizes beyond any machine's memory do not.
    @Test func aCopyIsMadeOnlyWithRoomToSpare() {
        #expect(MappedFile.memoryLeavesRoom(forCopyOf: 1 << 20))
        #expect(!MappedFile.memoryLeavesRoom(forCopyOf: 1 << 50))
        #expect(!MappedFile.memoryLeavesRoom(forCopyOf: Int.max / 2))
    }
}
