#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How `run:` programs are found: as `posix_spawnp` finds them (a name with a slash is a path, relative
/// to the working directory; a bare name is looked up in each directory of `PATH` in turn, an empty entry
/// meaning the working directory).
public struct ProgramLookup: Sendable {
    /// The search path for bare names.
    package var searchPath: String
    /// Where `/` is for the lookup ("" for the real root): for tests, a directory standing in for it.
    package var root: String
    /// Whether a program that cannot be started is noted (`ServiceConfiguration.missingPrograms`) rather
    /// than refused: where no action will run (a simulation) or not here (`check` away from the machine).
    package var notesMissing: Bool

    package init(searchPath: String, root: String = "", notesMissing: Bool = false) {
        self.searchPath = searchPath
        self.root = root
        self.notesMissing = notesMissing
    }

    /// This process's `PATH`, or glibc's default (`/bin:/usr/bin`) when it is unset: where the daemon's
    /// actions will be looked up.
    package static var environment: ProgramLookup {
        ProgramLookup(searchPath: getenv("PATH").map { String(cString: $0) } ?? "/bin:/usr/bin")
    }

    /// This lookup, noting a program that cannot be started rather than refusing it.
    package var notingMissing: ProgramLookup {
        var lookup = self
        lookup.notesMissing = true
        return lookup
    }

    /// Why `program` cannot be started, or nil if it can.
    package func problem(with program: String) -> String? {
        let shown = ConfigurationLoader.quoted(program, limit: 80)
        if program.contains("/") {
            let relative = program.hasPrefix("/") ? "" : " (relative to the working directory: write an absolute path)"
            switch check(program) {
            case .executable: return nil
            case .missing: return "no such program \(shown)\(relative): install it there (chmod +x), or correct the path"
            case .directory: return "\(shown) is a directory, not a program\(relative)"
            case .notRegular: return "\(shown) is not a regular file, so not a program\(relative)"
            case .notExecutable: return "\(shown) is not executable (chmod +x it, or run it through its interpreter, e.g. run: [/bin/sh, \(program)])\(relative)"
            }
        }
        var notExecutable: String?
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            let path = (directory.isEmpty ? "." : String(directory)) + "/" + program
            switch check(path) {
            case .executable: return nil
            case .notExecutable: notExecutable = notExecutable ?? path
            case .missing, .directory, .notRegular: continue
            }
        }
        if let notExecutable {
            return "\(shown) is found at \(ConfigurationLoader.quoted(notExecutable, limit: 120)) but it is not executable (chmod +x it)"
        }
        return "no program \(shown) on PATH (\(ConfigurationLoader.quoted(searchPath, limit: 120))): install it, or write its absolute path, e.g. /usr/local/bin/\(program)"
    }

    private enum State { case executable, missing, directory, notRegular, notExecutable }

    private func check(_ path: String) -> State {
        let path = path.hasPrefix("/") ? root + path : path
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return access(path, X_OK) == 0 ? .executable : .notExecutable
        default: return .notRegular
        }
    }
}
