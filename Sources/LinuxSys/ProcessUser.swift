#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The user this process runs as, and the groups the kernel counts it in now (a group joined since
/// the last login is not among them).
package struct ProcessUser: Sendable, Hashable {
    /// The effective user's name (`getpwuid(geteuid())`), or `uid N` when it has none.
    package var name: String
    package var uid: UInt32
    /// The names of the supplementary groups (`getgroups`, each through `getgrgid`) and, last, the
    /// effective group's; a group without a name is left out.
    package var groups: [String]

    package var isRoot: Bool { uid == 0 }

    /// This process's user and groups, read now.
    package static func current() -> ProcessUser {
        let uid = geteuid()
        let name = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)"
        let count = getgroups(0, nil)
        var ids = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let read = count > 0 ? getgroups(count, &ids) : 0
        var groups = ids.prefix(Int(max(read, 0))).compactMap { id in getgrgid(id).map { String(cString: $0.pointee.gr_name) } }
        if let primary = getgrgid(getegid()) { groups.append(String(cString: primary.pointee.gr_name)) }
        return ProcessUser(name: name, uid: uid, groups: groups)
    }
}
