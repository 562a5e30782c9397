import Foundation
import Testing
import WalletWire

@Suite("LineFramer")
struct LineFramerTests {
    /// Feeds `bytes` to `framer` in chunks of `chunkSize` and returns every frame, in order.
    static func feed(_ bytes: Data, to framer: inout LineFramer, chunkSize: Int) -> [LineFramer.Frame] {
        var frames: [LineFramer.Frame] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(start + chunkSize, bytes.endIndex)
            frames += framer.append(bytes[start..<end])
            start = end
        }
        return frames
    }

    static func line(_ text: String) -> LineFramer.Frame { .line(Data(text.utf8)) }

    @Test("a line split across chunks is delivered once, whole")
    func lineSplitAcrossChunks() {
        var framer = LineFramer()
        #expect(framer.append(Data(#"{"id":1,"meth"#.utf8)) == [])
        #expect(framer.bufferedByteCount == 13)
        #expect(framer.append(Data(#"od":"status"}"#.utf8)) == [])
        #expect(framer.append(Data("\n{\"id\"".utf8)) == [Self.line(#"{"id":1,"method":"status"}"#)])
        #expect(framer.bufferedByteCount == 5)
        #expect(framer.append(Data(":2}\n".utf8)) == [Self.line(#"{"id":2}"#)])
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.finish() == 0)
    }

    @Test("chunk boundaries do not change the frames", arguments: [1, 2, 3, 7, 64, 4096])
    func chunkSizeDoesNotMatter(chunkSize: Int) {
        let text = "first\nsecond line\n\nfourth, after an empty line\n"
        var framer = LineFramer()
        let frames = Self.feed(Data(text.utf8), to: &framer, chunkSize: chunkSize)
        #expect(frames == [Self.line("first"), Self.line("second line"), Self.line(""),
                           Self.line("fourth, after an empty line")])
        #expect(framer.finish() == 0)
    }

    @Test("many lines in one chunk come out in order")
    func manyLinesInOneChunk() {
        let lines = (0..<1000).map { #"{"jsonrpc":"2.0","method":"$/log","params":{"message":"\#($0)"}}"# }
        var framer = LineFramer()
        let frames = framer.append(Data(lines.map { $0 + "\n" }.joined().utf8))
        #expect(frames == lines.map(Self.line))
        #expect(framer.bufferedByteCount == 0)
    }

    @Test("a newline inside a chunk with a half line after it keeps the half line")
    func completeLinePlusHalfLine() {
        var framer = LineFramer()
        #expect(framer.append(Data("one\ntwo\nthr".utf8)) == [Self.line("one"), Self.line("two")])
        #expect(framer.bufferedByteCount == 3)
        #expect(framer.append(Data("ee\n".utf8)) == [Self.line("three")])
    }

    @Test("a line of exactly the limit is accepted, one byte more is not", arguments: [1, 5, 64])
    func exactlyTheLimit(chunkSize: Int) {
        var framer = LineFramer(maximumLineBytes: 64)
        let atLimit = String(repeating: "a", count: 64)
        let overLimit = String(repeating: "b", count: 65)
        let frames = Self.feed(Data((atLimit + "\n" + overLimit + "\n" + atLimit + "\n").utf8), to: &framer,
                               chunkSize: chunkSize)
        #expect(frames == [Self.line(atLimit), .oversized(byteCount: 65), Self.line(atLimit)])
    }

    @Test("an over-limit line is reported once and the next line still arrives")
    func oversizedLineThenNextLine() {
        var framer = LineFramer(maximumLineBytes: 16)
        var frames: [LineFramer.Frame] = []
        // 100 bytes without a newline, in small reads, as a flooding peer would send them.
        for _ in 0..<10 {
            frames += framer.append(Data(String(repeating: "x", count: 10).utf8))
            // Memory stays bounded: the framer never holds more than the limit.
            #expect(framer.bufferedByteCount <= 16)
        }
        #expect(frames == [])
        frames += framer.append(Data("\n{\"id\":3}\n".utf8))
        #expect(frames == [.oversized(byteCount: 100), Self.line(#"{"id":3}"#)])
        #expect(framer.finish() == 0)
    }

    @Test("an over-limit line that ends inside one chunk is reported with its length")
    func oversizedLineInOneChunk() {
        var framer = LineFramer(maximumLineBytes: 8)
        let frames = framer.append(Data("ok\n0123456789\nok again\n".utf8))
        #expect(frames == [Self.line("ok"), .oversized(byteCount: 10), Self.line("ok again")])
    }

    @Test("an over-limit line built from a buffered start is reported once")
    func oversizedAfterBufferedStart() {
        var framer = LineFramer(maximumLineBytes: 8)
        #expect(framer.append(Data("012345".utf8)) == [])
        #expect(framer.append(Data("6789\nnext\n".utf8)) == [.oversized(byteCount: 10), Self.line("next")])
    }

    @Test("a half line at end of stream is not a message; finish() reports its size and resets")
    func halfLineThenFinish() {
        var framer = LineFramer()
        #expect(framer.append(Data(#"{"jsonrpc":"2.0","id":4,"res"#.utf8)) == [])
        #expect(framer.finish() == 28)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.finish() == 0)
        // After finish() the framer starts clean: the old half line does not prefix the next one.
        #expect(framer.append(Data("fresh\n".utf8)) == [Self.line("fresh")])
    }

    @Test("finish() during an over-limit line reports the bytes dropped")
    func finishWhileDiscarding() {
        var framer = LineFramer(maximumLineBytes: 4)
        #expect(framer.append(Data("0123456789".utf8)) == [])
        #expect(framer.finish() == 10)
        #expect(framer.append(Data("ok\n".utf8)) == [Self.line("ok")])
    }

    /// Scanning 16 MiB takes seconds in a debug build, so the boundary itself is tested with
    /// small limits above; this pins the real limit the framer uses by default.
    @Test("the default limit is the protocol's 16 MiB, newline excluded")
    func realLimit() {
        #expect(WireProtocol.maximumLineBytes == 16_777_216)
        #expect(LineFramer().maximumLineBytes == WireProtocol.maximumLineBytes)
    }
}
