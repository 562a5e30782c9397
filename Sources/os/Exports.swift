// On Apple platforms `import os` brings Foundation with URLSession; off them URLSession lives in
// FoundationNetworking, re-exported so that a file importing os sees what it did on iOS.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
