import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A user as messages name it: `uid 1000 (alice)`.
enum UserName {
    static func describe(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        if getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, let result, let name = result.pointee.pw_name {
            return "uid \(uid) (\(String(cString: name)))"
        }
        return "uid \(uid)"
    }
}
