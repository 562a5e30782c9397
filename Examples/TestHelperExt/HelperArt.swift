import FoundationEssentials
import WalletExtensionKit

/// Card art for the helper's entry, embedded so the helper needs no files.
enum HelperArt {
    /// A plain grey 1536 x 969 card, 1-bit paletted (279 bytes). Made by
    /// `python3 Examples/SampleIssuer/Art/make_card_art.py --plain-base64`.
    static let plainCard: CGImage = CGImage(pngData: Data(base64Encoded: plainCardBase64)!)!

    private static let plainCardBase64 = """
        iVBORw0KGgoAAAANSUhEUgAABgAAAAPJAQMAAADu/3HzAAAABlBMVEVaWmTIyNI61wwmAAAAzElEQVR42u3BAQ0AAADCoPdPbQ8HFAAAAAAA\
        AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
        AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\
        AAAAAAAAAAAAAAAAAMC5AdqnAAGAaKBHAAAAAElFTkSuQmCC
        """
}
