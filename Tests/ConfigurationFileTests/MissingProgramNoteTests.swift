import ConfigurationFile
import Testing

/// A program of a `run:` action that cannot be started is refused by a lookup that refuses (a real run),
/// and noted, with where it is named, by one that notes (a simulation, `check` away from the machine).
@Suite struct MissingProgramNoteTests {
    static let text = """
        keypads:
          - name: door
            rows: [5, 6, 13, 19]
            columns: [12, 16, 20, 21]
            actions:
              - {on: press, run: [/nonexistent/door-check]}
              - {on: release, run: [true]}
        """
    static let lookup = ProgramLookup(searchPath: "/bin:/usr/bin")

    @Test func aRefusingLookupRefusesAMissingProgram() throws {
        let error = try #require(ConfigurationValidationTests.failure(Self.text, programs: Self.lookup))
        #expect(error.line == 6 && error.column == 27 && error.key == "keypads[0].actions[0].run[0]", "\(error)")
        #expect(error.message == "no such program '/nonexistent/door-check': install it there (chmod +x), or correct the path")
    }

    @Test func aNotingLookupLoadsTheFileAndNotesWhereTheProgramIsNamed() throws {
        let configuration = try ConfigurationLoader.load(Self.text, file: "door.yaml", programs: Self.lookup.notingMissing)
        #expect(configuration.keypads[0].actions.count == 2)
        #expect(configuration.missingPrograms.map(\.description) == ["door.yaml:6:27: keypads[0].actions[0].run[0]: no such program '/nonexistent/door-check': install it there (chmod +x), or correct the path"])
        // Found programs are no note; without a lookup nothing is looked up.
        #expect(try ConfigurationLoader.load(Self.text, file: "door.yaml").missingPrograms.isEmpty)
    }
}
