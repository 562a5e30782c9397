import Foundation

// The compiler plugin behind `#Preview`: every expansion is empty, so a preview compiles (its body
// is type-checked against the macro's signature) and adds nothing to the program, as a device
// build's previews add nothing that runs. Written against the compiler's plugin protocol itself
// (each message an 8-byte little-endian length, then JSON), not swift-syntax: the SDK takes no
// package dependencies.

/// Reads exactly `count` bytes from standard input, or nil at its end.
func readMessageBytes(_ count: Int) -> Data? {
    var data = Data()
    while data.count < count {
        let chunk = FileHandle.standardInput.readData(ofLength: count - data.count)
        if chunk.isEmpty { return nil }
        data.append(chunk)
    }
    return data
}

/// Writes one message to the compiler.
func writeMessage(_ json: String) {
    let body = Data(json.utf8)
    var length = UInt64(body.count).littleEndian
    FileHandle.standardOutput.write(Data(bytes: &length, count: 8) + body)
}

/// The protocol version this plugin speaks: 7, the first with `expandMacroResult`.
let protocolVersion = 7

while let header = readMessageBytes(8) {
    let length = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    guard length > 0, let body = readMessageBytes(Int(length)),
          let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let kind = message.keys.first
    else { break }
    switch kind {
    case "getCapability":
        writeMessage(#"{"getCapabilityResult":{"capability":{"protocolVersion":\#(protocolVersion)}}}"#)
    case "expandFreestandingMacro", "expandAttachedMacro":
        writeMessage(#"{"expandMacroResult":{"expandedSource":"","diagnostics":[]}}"#)
    default:
        // loadPluginLibrary and anything newer: this is an executable plugin, not a library host.
        writeMessage(#"{"loadPluginLibraryResult":{"loaded":false,"diagnostics":[]}}"#)
    }
}
