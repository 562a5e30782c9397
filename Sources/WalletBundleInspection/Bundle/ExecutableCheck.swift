import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks that `CFBundleExecutable` names a runnable file inside the bundle.
struct ExecutableCheck {
    /// The `.app` or `.appex` directory.
    var bundleURL: URL
    /// The Info.plist that names the executable; findings point at it.
    var infoPlistPath: String
    /// How much a missing executable file matters (an app's executable is optional to the host).
    var missingSeverity: ValidationFinding.Severity
    /// Appended to the sentence about a missing file, to say what it means for this bundle.
    var missingConsequence: String

    private var key: String { ValidationFinding.Key.bundleExecutable }

    /// The executable's URL when it can be run, nil (with a finding) when it cannot.
    func run(executableName name: String, findings: inout [ValidationFinding]) -> URL? {
        guard !name.hasPrefix("/") else {
            findings.error(infoPlistPath, key, "\"\(name)\" is an absolute path; it must name a file inside the bundle")
            return nil
        }
        guard !name.split(separator: "/").contains("..") else {
            findings.error(infoPlistPath, key, "\"\(name)\" has a \"..\" component and so leaves the bundle directory")
            return nil
        }
        let url = bundleURL.appendingPathComponent(name)
        var linkStatus = stat()
        guard lstat(url.path, &linkStatus) == 0 else {
            findings.append(ValidationFinding(missingSeverity, path: infoPlistPath, key: key,
                                              problem: "names \"\(name)\", which does not exist in the bundle\(missingConsequence)"))
            return nil
        }
        guard let resolvedPath = Self.realPath(url.path) else {
            findings.append(ValidationFinding(missingSeverity, path: infoPlistPath, key: key,
                                              problem: "names \"\(name)\", a symbolic link whose target does not exist\(missingConsequence)"))
            return nil
        }
        let bundlePath = Self.realPath(bundleURL.path) ?? bundleURL.path
        guard resolvedPath.hasPrefix(bundlePath + "/") else {
            findings.error(infoPlistPath, key,
                           "names \"\(name)\", which resolves to \(resolvedPath), outside the bundle directory \(bundlePath)")
            return nil
        }
        var status = stat()
        guard stat(resolvedPath, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            findings.error(infoPlistPath, key, "names \"\(name)\", which is not a regular file")
            return nil
        }
        let permissions = status.st_mode & 0o7777
        guard permissions & 0o111 != 0, access(resolvedPath, X_OK) == 0 else {
            findings.error(infoPlistPath, key,
                           "names \"\(name)\", which is not executable (mode \(String(permissions, radix: 8))); run chmod +x on it")
            return nil
        }
        checkFormat(of: url, named: name, status: status, findings: &findings)
        return url
    }

    /// Executable formats the host recognizes by their first bytes.
    private enum Format {
        case empty, script, elf, machO, unknown
    }

    private func checkFormat(of url: URL, named name: String, status: stat, findings: inout [ValidationFinding]) {
        #if os(Linux)
        let (nativeFormat, foreignFormat, foreignDescription) =
            (Format.elf, Format.machO, "a Mach-O binary, built for an Apple platform; Linux cannot run it")
        #else
        let (nativeFormat, foreignFormat, foreignDescription) =
            (Format.machO, Format.elf, "an ELF binary, built for Linux; this system cannot run it")
        #endif
        switch Self.format(of: url, size: Int(status.st_size)) {
        case .script, nativeFormat:
            return
        case .empty:
            findings.error(infoPlistPath, key, "names \"\(name)\", which is empty; execve would fail with ENOEXEC")
        case foreignFormat:
            findings.error(infoPlistPath, key, "names \"\(name)\", which is \(foreignDescription); build the executable for this platform")
        default:
            findings.warning(infoPlistPath, key,
                             "names \"\(name)\", which is neither a native binary nor a \"#!\" script; execve would likely fail with ENOEXEC")
        }
    }

    private static func format(of url: URL, size: Int) -> Format {
        guard size > 0 else { return .empty }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return .unknown }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        if bytes.starts(with: [0x23, 0x21]) { return .script }
        if bytes == [0x7F, 0x45, 0x4C, 0x46] { return .elf }
        let machOMagics: [[UInt8]] = [
            [0xFE, 0xED, 0xFA, 0xCE], [0xCE, 0xFA, 0xED, 0xFE],
            [0xFE, 0xED, 0xFA, 0xCF], [0xCF, 0xFA, 0xED, 0xFE],
            [0xCA, 0xFE, 0xBA, 0xBE],
        ]
        return machOMagics.contains(bytes) ? .machO : .unknown
    }

    /// The path with every symbolic link resolved, or nil when it leads nowhere.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
