// On Apple platforms `import os` brings Foundation. URLSession's module, FoundationNetworking,
// is not re-exported: see Sources/PassKit/Exports.swift.
@_exported import Foundation
