// The baseline for launch benchmarks: a Swift program that links Foundation, prints one
// line and exits. Spawn-to-first-line of this is what any Swift extension pays at minimum.
import Foundation

print("ready \(ProcessInfo.processInfo.processIdentifier)")
