/// Why an executable could not be read as Mach-O; the description completes "PATH ..." as a sentence.
struct MachOFormatError: Error, Equatable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
