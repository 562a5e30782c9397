import CWalletSpawn
#if canImport(Glibc)
import Glibc
#endif

/// Opens a path beneath a directory the host opened itself, following no symbolic link on the
/// way (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`): a link anywhere fails with
/// ELOOP, an escape with EXDEV. For the state directory's files and directories, which the
/// host must never reach through a link another user swapped in.
public enum BeneathLookup {
    /// `O_PATH`: a descriptor that names a file without opening it, for the `*at` calls.
    public static let pathOnly: Int32 = WH_O_PATH

    /// `path` (relative) opened beneath `directory`, or -1 with errno.
    /// - Parameters:
    ///   - path: The path below `directory`; one component or several.
    ///   - directory: An open directory.
    ///   - flags: `open(2)` flags; with `O_CREAT`, `mode` is the new file's.
    ///   - mode: The mode of a file `O_CREAT` makes.
    public static func open(_ path: String, beneath directory: Int32, flags: Int32, mode: mode_t = 0) -> Int32 {
        wh_open_beneath(directory, path, flags, UInt32(mode))
    }
}
