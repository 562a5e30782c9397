import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Writes a report a command was asked for (`--html FILE`, `--junit FILE`): a failure is a
/// ``CommandFailure`` naming the report and the file, so the command exits 1 instead of 0.
///
/// A regular file (or a new one) is replaced atomically, so a reader never sees half a report.
/// A path that names something else, a device (`/dev/stdout`, `/dev/full`) or a FIFO, is opened
/// and written as a shell redirection would: an atomic replace would put a regular file in
/// the device's place and report success, which is what happened to `--html /dev/full` as root.
enum ReportFile {
    /// Writes `text` to `url`.
    /// - Parameters:
    ///   - text: The whole report.
    ///   - url: Where the user asked for it.
    ///   - report: What it is, for the message ("JUnit report", "HTML report").
    /// - Throws: ``CommandFailure``: "cannot write the JUnit report to PATH: REASON".
    static func write(_ text: String, to url: URL, report: String) throws(CommandFailure) {
        let path = url.path
        do {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                guard (info.st_mode & S_IFMT) != S_IFDIR else { throw POSIXFailure(errno: EISDIR) }
                try writeInPlace(Data(text.utf8), path: path)
            } else {
                try Data(text.utf8).write(to: url, options: .atomic)
            }
        } catch {
            throw CommandFailure("cannot write the \(report) to \(path): \(reason(error))")
        }
    }

    /// Opens the existing `path` for writing and writes every byte, as `> path` does.
    private static func writeInPlace(_ data: Data, path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw POSIXFailure(errno: errno) }
        var failure: Int32?
        do {
            // A blocking descriptor: writeAll's would-block case does not arise.
            try data.withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }
        } catch {
            failure = (error as? SystemCallError)?.errno ?? EIO
        }
        if let closing = SystemCall.closeReportingFailure(descriptor), failure == nil { failure = closing }
        if let failure { throw POSIXFailure(errno: failure) }
    }

    /// The system's words for the failure ("No space left on device", "Permission denied"),
    /// rather than Foundation's "The operation could not be completed".
    static func reason(_ error: any Error) -> String {
        if let failure = error as? POSIXFailure { return failure.description }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        // Foundation's codes for what the system said, where it kept no underlying error.
        let codes: [CocoaError.Code: Int32] = [.fileWriteNoPermission: EACCES, .fileWriteOutOfSpace: ENOSPC,
                                               .fileWriteVolumeReadOnly: EROFS, .fileNoSuchFile: ENOENT,
                                               .fileWriteFileExists: EEXIST]
        if let cocoa = error as? CocoaError, let code = codes[cocoa.code] { return String(cString: strerror(code)) }
        return ErrorMessage.sentence(error)
    }
}

/// A failed system call's `errno`, described by `strerror`.
struct POSIXFailure: Error, CustomStringConvertible {
    var errno: Int32

    var description: String { String(cString: strerror(errno)) }
}
